-- Reason: several bot processes share one database (issue #18): a move applied by a process that does not send its table's messages (a DM click reaches shard 0's process, the scheduler's process plays timeouts) tells the process that does, through a row written in the move's own transaction and claimed by that process before it sends anything.

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    table_id   INTEGER,
    guild_id   INTEGER,
    version    INTEGER NOT NULL,
    notes      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_at INTEGER
);

CREATE INDEX outbox_by_game ON outbox (game_id, version);

-- Reason: several bot processes share one database (issue #18), and a tournament's next round (or its end) is often reached in a process that does not run the tournament's server (the last match ended by a DM click, a timeout or a round deadline): that process writes a notice with no game for the server's process, which places the round's tables, announces it and tells its players. A notice of a tournament names no game, so the outbox's game_id may be NULL; and a round's announcement is marked in the round's row (announced_at, in the notice's own transaction), so that a process killed between opening a round and announcing it leaves the round to be announced by the next look at the tournament (every process's start), never twice. Rounds opened before this migration were announced then (SQLite cannot drop a NOT NULL: the table is made again, its rows kept).

CREATE TABLE outbox_new (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: a tournament's news
    table_id   INTEGER,
    guild_id   INTEGER,
    version    INTEGER NOT NULL,
    notes      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_at INTEGER
);

INSERT INTO outbox_new (id, game_id, table_id, guild_id, version, notes, created_at, claimed_by, claimed_at)
    SELECT id, game_id, table_id, guild_id, version, notes, created_at, claimed_by, claimed_at FROM outbox;

DROP TABLE outbox;

ALTER TABLE outbox_new RENAME TO outbox;

CREATE INDEX outbox_by_game ON outbox (game_id, version);

ALTER TABLE tournament_rounds ADD COLUMN announced_at INTEGER;  -- ms; NULL: not announced yet

UPDATE tournament_rounds SET announced_at = started_at;

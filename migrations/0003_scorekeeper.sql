-- Reason: the score keeper, for people playing with real cards at a real table: sessions with
-- named sides and a target, and the entries written into them (undo keeps the entry, marked).

CREATE TABLE scorekeeper_sessions (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER,
    channel_id INTEGER,
    owner_id   INTEGER NOT NULL,
    title      TEXT    NOT NULL,
    sides      TEXT    NOT NULL,                     -- JSON list of side names
    target     INTEGER,
    status     TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX scorekeeper_open_by_channel ON scorekeeper_sessions (channel_id) WHERE status = 'open';

CREATE TABLE scorekeeper_entries (
    session_id INTEGER NOT NULL REFERENCES scorekeeper_sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    side       INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    note       TEXT    NOT NULL DEFAULT '',
    by_user    INTEGER,
    at         INTEGER NOT NULL,
    undone_at  INTEGER,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- Reason: one scheduler at a time across bot processes sharing a database, and a computer seat's turn thought once: a lease (who holds it, until when; renewed while its process lives, taken over once it runs out) and each computer turn's claim (the game's version, which process thinks it, until when).

CREATE TABLE leases (
    name       TEXT PRIMARY KEY,    -- 'scheduler'
    holder     TEXT NOT NULL,       -- the process: host, pid and a random part
    expires_at INTEGER NOT NULL     -- ms since the epoch; after it anyone may take the lease
);

CREATE TABLE computer_turns (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,    -- the game's version whose turn is being thought
    holder     TEXT NOT NULL,
    expires_at INTEGER NOT NULL     -- a claim older than this is its process's death
);

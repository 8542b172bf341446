-- Reason: what a restart must find still owed or still said, kept beside each game instead of in the bot's memory: the game version the table message shows (a move, whose version bump is the debt, leaves it owing an edit until that edit reaches Discord; NULL: owed whatever the version), the nonce of a hand DM being sent (so the send tried again after a crash is the same message to Discord), the table's note of the last timeout, and each rated player's score before and after a match (the final table shows them).

ALTER TABLE games ADD COLUMN table_shown INTEGER;   -- the version the table message shows
ALTER TABLE games ADD COLUMN note_kind TEXT;        -- 'timeout' or 'handed': the last timeout's note
ALTER TABLE games ADD COLUMN note_user INTEGER;     -- whose time ran out
ALTER TABLE game_seats ADD COLUMN dm_nonce INTEGER; -- a hand DM sent and not yet remembered

-- Games already over show their end; a game in play is brought up to date once.
UPDATE games SET table_shown = version WHERE status <> 'playing';

CREATE INDEX games_owing_a_table ON games (id) WHERE table_shown IS NULL OR table_shown < version;

CREATE TABLE match_rating_changes (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    board     INTEGER NOT NULL,                  -- a server, or 0 across all servers
    rating_id INTEGER NOT NULL,                  -- a person, or a computer level (negative)
    score_before REAL,                          -- NULL: their first rated match here
    score_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, board, rating_id)
);

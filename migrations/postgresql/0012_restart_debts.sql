-- Reason: what a restart must find still owed or still said, kept beside each game instead of in the bot's memory: the game version the table message shows (a move, whose version bump is the debt, leaves it owing an edit until that edit reaches Discord; NULL: owed whatever the version), the nonce of a hand DM being sent (so the send tried again after a crash is the same message to Discord), the table's note of the last timeout, and each rated player's score before and after a match (the final table shows them).
--
-- PostgreSQL's variant of migrations/0012_restart_debts.sql: ids, versions and nonces are BIGINT (see 0001's variant).

ALTER TABLE games ADD COLUMN table_shown BIGINT;
ALTER TABLE games ADD COLUMN note_kind TEXT;
ALTER TABLE games ADD COLUMN note_user BIGINT;
ALTER TABLE game_seats ADD COLUMN dm_nonce BIGINT;

UPDATE games SET table_shown = version WHERE status <> 'playing';

CREATE INDEX games_owing_a_table ON games (id) WHERE table_shown IS NULL OR table_shown < version;

CREATE TABLE match_rating_changes (
    game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    board     BIGINT NOT NULL,
    rating_id BIGINT NOT NULL,
    score_before DOUBLE PRECISION,
    score_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, board, rating_id)
);

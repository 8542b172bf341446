-- Reason: what the bot must remember across a restart, kept beside each game: a seat whose direct messages refused its hand (the game's version at the turn of the last refused try, and whether the table was told, once a game), and each finished deal's count posted (where), so that a restart neither posts a count twice nor loses one, and tells a table of closed DMs only once.
--
-- PostgreSQL's variant of migrations/0011_bot_memory.sql: Discord ids are BIGINT (see 0001's variant).

ALTER TABLE game_seats ADD COLUMN dm_refused_at BIGINT;
ALTER TABLE game_seats ADD COLUMN dm_noted INTEGER NOT NULL DEFAULT 0;

CREATE TABLE deal_posts (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deal       INTEGER NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, deal)
);

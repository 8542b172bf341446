-- Reason: what the bot must remember across a restart, kept beside each game: a seat whose direct messages refused its hand (the game's version at the turn of the last refused try, and whether the table was told, once a game), and each finished deal's count posted (where), so that a restart neither posts a count twice nor loses one, and tells a table of closed DMs only once.

ALTER TABLE game_seats ADD COLUMN dm_refused_at INTEGER;  -- NULL: the seat's DMs are not known closed
ALTER TABLE game_seats ADD COLUMN dm_noted INTEGER NOT NULL DEFAULT 0;  -- the table was told

CREATE TABLE deal_posts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deal       INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, deal)
);

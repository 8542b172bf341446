-- Reason: one word per idea. The schema says what the code and the messages say: people
-- gather at a *table* (was "lobby") and a score keeper's record is a *score sheet* (was a
-- "scorekeeper session"). Renames only; no data changes. SQLite rewrites the foreign keys
-- that name a renamed table or column.

ALTER TABLE lobbies RENAME TO tables;
ALTER TABLE lobby_seats RENAME TO table_seats;
ALTER TABLE table_seats RENAME COLUMN lobby_id TO table_id;
ALTER TABLE games RENAME COLUMN lobby_id TO table_id;

DROP INDEX lobbies_by_guild_status;
DROP INDEX lobbies_by_message;
DROP INDEX lobby_seats_by_user;
DROP INDEX games_by_lobby;
CREATE INDEX tables_by_guild_status ON tables (guild_id, status);
CREATE INDEX tables_by_message ON tables (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX table_seats_by_user ON table_seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX games_by_table ON games (table_id) WHERE table_id IS NOT NULL;

ALTER TABLE scorekeeper_sessions RENAME TO score_sheets;
ALTER TABLE scorekeeper_entries RENAME TO score_entries;
ALTER TABLE score_entries RENAME COLUMN session_id TO sheet_id;
DROP INDEX scorekeeper_open_by_channel;
CREATE INDEX score_sheets_open_by_channel ON score_sheets (channel_id) WHERE status = 'open';

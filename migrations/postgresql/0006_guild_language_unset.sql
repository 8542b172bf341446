-- Reason: a server's language may be unset (NULL: follow the server's Discord locale), so that
-- saving a default option or a game channel no longer writes the old default 'it' as if a
-- manager had chosen Italian. Rows already saved keep their language. SQLite cannot drop a
-- NOT NULL, hence the documented rebuild of the table.
--
-- PostgreSQL's variant of migrations/0006_guild_language_unset.sql: PostgreSQL drops the NOT
-- NULL and the default in place; no rebuild.

ALTER TABLE guild_settings ALTER COLUMN language DROP NOT NULL;
ALTER TABLE guild_settings ALTER COLUMN language DROP DEFAULT;

-- Reason: a server's language may be unset (NULL: follow the server's Discord locale), so that
-- saving a default option or a game channel no longer writes the old default 'it' as if a
-- manager had chosen Italian. Rows already saved keep their language. SQLite cannot drop a
-- NOT NULL, hence the documented rebuild of the table.

CREATE TABLE guild_settings_new (
    guild_id        INTEGER PRIMARY KEY,
    language        TEXT,                            -- 'it' or 'en'; NULL: the Discord locale
    default_rules   TEXT    NOT NULL DEFAULT '{}',   -- JSON of Rules fields the host may override
    game_channel_id INTEGER,
    updated_at      INTEGER NOT NULL                 -- milliseconds since the epoch, UTC
);

INSERT INTO guild_settings_new (guild_id, language, default_rules, game_channel_id, updated_at)
    SELECT guild_id, language, default_rules, game_channel_id, updated_at FROM guild_settings;

DROP TABLE guild_settings;

ALTER TABLE guild_settings_new RENAME TO guild_settings;

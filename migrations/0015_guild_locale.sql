-- Reason: several bot processes share one database (issue #18), and a process may post in a server it has no gateway cache of (a tournament's next round, opened where the round before ended): the process that runs the server's shard records the server's Discord locale here when it sees the server, so a server whose managers chose no language is spoken to in its own locale whichever process posts.

CREATE TABLE guild_locales (
    guild_id INTEGER PRIMARY KEY,
    locale   TEXT NOT NULL,        -- Discord's preferred_locale of the server ('it', 'en-US'...)
    seen_at  INTEGER NOT NULL      -- ms since the epoch, when it was last seen changed
);

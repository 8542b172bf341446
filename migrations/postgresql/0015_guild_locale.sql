-- Reason: several bot processes share one database (issue #18), and a process may post in a server it has no gateway cache of (a tournament's next round, opened where the round before ended): the process that runs the server's shard records the server's Discord locale here when it sees the server, so a server whose managers chose no language is spoken to in its own locale whichever process posts.
--
-- PostgreSQL's variant of migrations/0015_guild_locale.sql: integers are BIGINT (see 0001's variant).

CREATE TABLE guild_locales (
    guild_id BIGINT PRIMARY KEY,
    locale   TEXT NOT NULL,
    seen_at  BIGINT NOT NULL
);

-- Reason: one scheduler at a time across bot processes sharing a database, and a computer seat's turn thought once: a lease (who holds it, until when; renewed while its process lives, taken over once it runs out) and each computer turn's claim (the game's version, which process thinks it, until when).
--
-- PostgreSQL's variant of migrations/0013_scheduler_lease.sql: integers are BIGINT (see 0001's variant); and the two integer columns 0011's variant made INTEGER become BIGINT, as every other integer column is (an applied migration is never edited).

CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE TABLE computer_turns (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

ALTER TABLE game_seats ALTER COLUMN dm_noted TYPE BIGINT;
ALTER TABLE deal_posts ALTER COLUMN deal TYPE BIGINT;

-- Reason: the game service. A table keeps its pace, timeout rule and computer level; a game its
-- next reminder beside its deadline; each seat its timeouts in a row, whether it was handed to a
-- computer, and the front end's hand message; a match result the side that resigned or forfeited;
-- each person their language and whether they want turn notices. One seat per person per table.
--
-- PostgreSQL's variant of migrations/0005_service.sql: its types (see 0001's variant).

ALTER TABLE tables ADD COLUMN pace TEXT NOT NULL
    DEFAULT '{"kind":"untimed","seconds":null,"reminders":[]}';
ALTER TABLE tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer';
ALTER TABLE tables ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';

ALTER TABLE games ADD COLUMN remind_at BIGINT;
CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;

ALTER TABLE game_seats ADD COLUMN timeouts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_seats ADD COLUMN away BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_seats ADD COLUMN channel_id BIGINT;
ALTER TABLE game_seats ADD COLUMN message_id BIGINT;

ALTER TABLE match_results ADD COLUMN losing_side BIGINT;

CREATE TABLE user_settings (
    user_id    BIGINT  PRIMARY KEY,
    language   TEXT,
    notify     BIGINT  NOT NULL DEFAULT 1,
    updated_at BIGINT  NOT NULL
);

DELETE FROM table_seats
WHERE user_id IS NOT NULL
  AND seat > (SELECT min(t.seat) FROM table_seats t
              WHERE t.table_id = table_seats.table_id AND t.user_id = table_seats.user_id);
CREATE UNIQUE INDEX table_seats_one_per_person ON table_seats (table_id, user_id)
    WHERE user_id IS NOT NULL;

-- Reason: the game service. A table keeps its pace, timeout rule and computer level; a game its
-- next reminder beside its deadline; each seat its timeouts in a row, whether it was handed to a
-- computer, and the front end's hand message; a match result the side that resigned or forfeited;
-- each person their language and whether they want turn notices. One seat per person per table.

ALTER TABLE tables ADD COLUMN pace TEXT NOT NULL
    DEFAULT '{"kind":"untimed","seconds":null,"reminders":[]}';  -- JSON of the service's Pace
ALTER TABLE tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer';
ALTER TABLE tables ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';

ALTER TABLE games ADD COLUMN remind_at INTEGER;     -- the next reminder of the current turn
CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;

ALTER TABLE game_seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;  -- in a row
ALTER TABLE game_seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;      -- handed to a computer
ALTER TABLE game_seats ADD COLUMN channel_id INTEGER;  -- where the seat's hand message is
ALTER TABLE game_seats ADD COLUMN message_id INTEGER;

ALTER TABLE match_results ADD COLUMN losing_side INTEGER;  -- who resigned or forfeited

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT,                                 -- NULL: follow Discord's locale
    notify     INTEGER NOT NULL DEFAULT 1,           -- a DM when it is their turn
    updated_at INTEGER NOT NULL
);

-- A person sat twice at one table before this rule: keep their lowest seat.
DELETE FROM table_seats
WHERE user_id IS NOT NULL
  AND seat > (SELECT min(t.seat) FROM table_seats t
              WHERE t.table_id = table_seats.table_id AND t.user_id = table_seats.user_id);
CREATE UNIQUE INDEX table_seats_one_per_person ON table_seats (table_id, user_id)
    WHERE user_id IS NOT NULL;

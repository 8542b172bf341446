-- Reason: several bot processes share one database (issue #18), and a tournament's next round (or its end) is often reached in a process that does not run the tournament's server (the last match ended by a DM click, a timeout or a round deadline): that process writes a notice with no game for the server's process, which places the round's tables, announces it and tells its players. A notice of a tournament names no game, so the outbox's game_id may be NULL; and a round's announcement is marked in the round's row (announced_at, in the notice's own transaction), so that a process killed between opening a round and announcing it leaves the round to be announced by the next look at the tournament (every process's start), never twice. Rounds opened before this migration were announced then.
--
-- PostgreSQL's variant of migrations/0016_outbox_tournament_news.sql: the column's NOT NULL is dropped in place (the NOTIFY trigger of 0014 stays).

ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;

ALTER TABLE tournament_rounds ADD COLUMN announced_at BIGINT;  -- ms; NULL: not announced yet

UPDATE tournament_rounds SET announced_at = started_at;

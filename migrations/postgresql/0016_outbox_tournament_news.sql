-- Reason: several bot processes share one database (issue #18), and a tournament's next round (or its end) is often reached in a process that does not run the tournament's server (the last match ended by a DM click, a timeout or a round deadline): that process writes a notice with no game for the server's process, which places the round's tables, announces it and tells its players. A notice of a tournament names no game, so the outbox's game_id may be NULL.
--
-- PostgreSQL's variant of migrations/0016_outbox_tournament_news.sql: the column's NOT NULL is dropped in place (the NOTIFY trigger of 0014 stays).

ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;

-- Reason: a finished match's Rematch opens one table; the new table remembers the game it is the rematch of, so that a later click, even after a restart, points to that table instead of opening another.
--
-- PostgreSQL's variant of migrations/0007_rematch_of.sql: a BIGINT (see 0001's variant).

ALTER TABLE tables ADD COLUMN rematch_of BIGINT REFERENCES games (id);

CREATE INDEX tables_by_rematch_of ON tables (rematch_of) WHERE rematch_of IS NOT NULL;

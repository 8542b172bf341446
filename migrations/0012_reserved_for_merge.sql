-- Reason: a number kept for another branch's migration, to be replaced by it when the branches are merged; this file changes nothing.

SELECT 1;

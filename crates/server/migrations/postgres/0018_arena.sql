-- Arenas (issue 44, docs/tournaments.md "Arena"): the window of play opens when the tournament
-- starts running and lasts the arena's duration, so its start is kept. Null for tournaments
-- that started before this column, and for every other format.
ALTER TABLE tournaments ADD COLUMN started_ms BIGINT;

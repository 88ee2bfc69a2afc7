-- Chat in channels (docs/api.md, "Chat"): `players` (the seated players, read by everyone),
-- `spectators` (everyone else who may read the game; hidden from the players while it is
-- live) and `system` (joins, undo requests, rematches, time-outs: no author, so user_id may be
-- NULL).
ALTER TABLE chat ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE chat ADD COLUMN channel TEXT NOT NULL DEFAULT 'players';

-- The game a finished game's rematch became: one rematch per game, however many players press
-- the button at once (two presses once made two half-empty games). 0 while it is being made.
ALTER TABLE games ADD COLUMN rematch BIGINT;

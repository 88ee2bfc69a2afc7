-- The game a finished game's rematch became: one rematch per game, however many players press
-- the button at once (two presses once made two half-empty games). 0 while it is being made.
ALTER TABLE games ADD COLUMN rematch BIGINT;
-- A game of one person against bots with no clock: it does not count against its creator's cap
-- of open or live games (a newcomer's forgotten first games once blocked them at 20).
ALTER TABLE games ADD COLUMN casual BIGINT NOT NULL DEFAULT 0;

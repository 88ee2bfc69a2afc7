-- The address a game was created from: open and live games are counted per address as well as
-- per account (100 guests of one address once filled the server with 2,000 live games).
ALTER TABLE games ADD COLUMN creator_address TEXT;
CREATE INDEX games_by_creator_address ON games(creator_address, status);

-- What lobby lists show of a game's settings (system, players, map brief, rated, seats by
-- invitation), so that a list never reads a whole custom map. Filled in when missing.
ALTER TABLE games ADD COLUMN brief TEXT;

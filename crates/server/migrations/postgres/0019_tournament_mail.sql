-- Tournaments (issue 44): the notice of a round's start, mailed when a player's game of the
-- round is made, is a kind of its own that players may turn off; on unless they do.
ALTER TABLE mail_addresses ADD COLUMN tournament BIGINT NOT NULL DEFAULT 1;

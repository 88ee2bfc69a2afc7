-- Ratings per rule system AND number of players: a two-player and a five-player game of one
-- system are different skills (docs/api.md, "Ratings"). A rating from before this split is
-- kept as the rating for the number of players of that player's latest rated game in the
-- system (the best single guess: the old rating mixed every table size).
CREATE TABLE rating_pools (
    user_id BIGINT NOT NULL REFERENCES users(id),
    system TEXT NOT NULL,
    players BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    -- Rated games counted: also the version the update compares and sets.
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, system, players)
);
INSERT INTO rating_pools (user_id, system, players, mu, sigma, games)
SELECT r.user_id, r.system,
       COALESCE(NULLIF((SELECT COUNT(*) FROM seats s WHERE s.game_id = (
           SELECT h.game_id FROM rating_history h WHERE h.user_id = r.user_id AND h.system = r.system
           ORDER BY h.at_ms DESC, h.game_id DESC LIMIT 1)), 0), 2),
       r.mu, r.sigma, r.games
FROM ratings r;
DROP TABLE ratings;
ALTER TABLE rating_pools RENAME TO ratings;

ALTER TABLE rating_history ADD COLUMN players BIGINT NOT NULL DEFAULT 2;
UPDATE rating_history SET players = COALESCE(NULLIF(
    (SELECT COUNT(*) FROM seats s WHERE s.game_id = rating_history.game_id), 0), 2);

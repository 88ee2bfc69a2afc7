-- Rated games (their setup says so) change their players' ratings, one per rule system
-- (Weng-Lin: mu and sigma).
CREATE TABLE ratings (
    user_id BIGINT NOT NULL REFERENCES users(id),
    system TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    -- Rated games counted: also the version the update compares and sets.
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, system)
);

-- One row per player of each rated game: the rating before and after it.
CREATE TABLE rating_history (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    system TEXT NOT NULL,
    place BIGINT NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history(user_id, at_ms);

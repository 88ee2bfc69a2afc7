-- Vacations: while one runs (from started_ms until ended_ms, or until until_ms, where the
-- year's allowance runs out), the player's correspondence clocks do not run.
CREATE TABLE vacations (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    started_ms BIGINT NOT NULL,
    until_ms BIGINT NOT NULL,
    ended_ms BIGINT
);
CREATE INDEX vacations_user ON vacations(user_id, started_ms);
-- One vacation open per player (one that ran out of allowance is closed before another starts).
CREATE UNIQUE INDEX vacations_open ON vacations(user_id) WHERE ended_ms IS NULL;

-- Computer reviews of finished games (issue 43, docs/api.md "Computer review"): one row per game
-- and budget (playouts per position). Waiting reviews are `queued`; the instance running one
-- holds it (`claimed_by` until `claim_until_ms`, renewed after each position) so that it runs
-- on exactly one instance and is taken over when that instance dies (`claims` counts the runs).
CREATE TABLE reviews (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    playouts BIGINT NOT NULL,
    requested_by BIGINT NOT NULL REFERENCES users(id),
    status TEXT NOT NULL,
    total BIGINT NOT NULL,
    claimed_by TEXT,
    claim_until_ms BIGINT NOT NULL DEFAULT 0,
    claims BIGINT NOT NULL DEFAULT 0,
    error TEXT,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT,
    UNIQUE (game_id, playouts)
);
CREATE INDEX reviews_waiting ON reviews(status, id);
CREATE INDEX reviews_requester ON reviews(requested_by, status);

-- Each position as its search finishes (a review resumes from those stored): the judgement
-- without ownership, the ownership apart (read only by the position endpoint), and the
-- instance that searched it.
CREATE TABLE review_positions (
    review_id BIGINT NOT NULL REFERENCES reviews(id),
    at BIGINT NOT NULL,
    body TEXT NOT NULL,
    ownership TEXT NOT NULL,
    computed_by TEXT NOT NULL,
    PRIMARY KEY (review_id, at)
);

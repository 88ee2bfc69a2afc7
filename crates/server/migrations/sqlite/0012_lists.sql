-- What lobby lists filter on, one column each so that a filtered list is one indexed query
-- (the brief is JSON, which SQLite and PostgreSQL read differently). Filled in when missing.
ALTER TABLE games ADD COLUMN list_system TEXT;
ALTER TABLE games ADD COLUMN list_map_family TEXT;
ALTER TABLE games ADD COLUMN list_map_size TEXT;
ALTER TABLE games ADD COLUMN list_players BIGINT;
ALTER TABLE games ADD COLUMN list_rated BIGINT;
ALTER TABLE games ADD COLUMN list_clock TEXT;
CREATE INDEX games_list_system ON games(status, list_system, id);
CREATE INDEX games_finished_ms ON games(finished_ms);

-- Who a live game waits for (a move, a decision, an answer to an undo request), written by the
-- game's owner whenever it changes: "your move" lists and notices read it without loading any
-- game, on any instance. deadline_ms: when the waiting player's time runs out (NULL: no clock).
CREATE TABLE waits (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    -- The game's sequence number when the wait began: with the game, what names this wait.
    seq BIGINT NOT NULL,
    since_ms BIGINT NOT NULL,
    deadline_ms BIGINT,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX waits_user ON waits(user_id);

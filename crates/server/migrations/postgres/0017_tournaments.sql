-- Tournaments (issue 44, docs/tournaments.md "Running a tournament on the server"). The
-- settings column holds the checked creation body (game template, format, points, bounds); the
-- columns the director and the lists query are apart. The director of a running tournament is
-- one instance at a time: it holds the claim (`claimed_by` until `claim_until_ms`), and every
-- claim raises `epoch`, which each of its writes checks (fencing), so that an instance that
-- lost its claim while frozen cannot write over the one that took the tournament over.
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    creator BIGINT NOT NULL REFERENCES users(id),
    settings TEXT NOT NULL,
    state TEXT NOT NULL,
    start_ms BIGINT,
    max_entrants BIGINT NOT NULL,
    claimed_by TEXT,
    claim_until_ms BIGINT NOT NULL DEFAULT 0,
    epoch BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT
);
CREATE INDEX tournaments_state ON tournaments(state, id);
CREATE INDEX tournaments_creator ON tournaments(creator, state);

-- Entrants: an account, or a bot (`user_id` NULL, `bot_level` set).
CREATE TABLE tournament_entrants (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    user_id BIGINT REFERENCES users(id),
    bot_level BIGINT,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    joined_round BIGINT NOT NULL,
    withdrawn_after BIGINT,
    bye_requested TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX tournament_entrants_of ON tournament_entrants(tournament_id);
CREATE UNIQUE INDEX tournament_entrants_user ON tournament_entrants(tournament_id, user_id);

-- Each round as the pairing library's `Round` (JSON): tables, results, byes, absences.
CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    number BIGINT NOT NULL,
    round TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    finished_ms BIGINT,
    PRIMARY KEY (tournament_id, number)
);

-- The game of each table: one per (tournament, round, table), so a director resuming a round
-- never makes a table's game twice.
CREATE TABLE tournament_games (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id),
    PRIMARY KEY (tournament_id, round, table_no)
);

ALTER TABLE games ADD COLUMN tournament_id BIGINT;
ALTER TABLE games ADD COLUMN tournament_round BIGINT;

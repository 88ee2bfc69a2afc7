-- Finding and keeping opponents (issue 42): presence, follows, blocks, challenges and seeks.

-- When the account was last seen (a game socket's pings, the lobby's polls), written at most
-- once a minute: "online" is read from here, so every instance sharing the database agrees.
ALTER TABLE users ADD COLUMN last_seen_ms BIGINT;

CREATE TABLE follows (
    follower BIGINT NOT NULL REFERENCES users(id),
    followed BIGINT NOT NULL REFERENCES users(id),
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);

-- The blocked player's challenges, invitations and chat do not reach the blocker.
CREATE TABLE blocks (
    blocker BIGINT NOT NULL REFERENCES users(id),
    blocked BIGINT NOT NULL REFERENCES users(id),
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks(blocked);

-- A challenge to a named player: the game's settings as the create form sends them (a
-- `POST /api/games` body), the seat kept for the challenged player, and where it stands:
-- pending, accepted (game_id), declined, withdrawn or expired.
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    from_user BIGINT NOT NULL REFERENCES users(id),
    to_user BIGINT NOT NULL REFERENCES users(id),
    setup TEXT NOT NULL,
    their_seat BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    game_id BIGINT
);
CREATE INDEX challenges_from ON challenges(from_user, status);
CREATE INDEX challenges_to ON challenges(to_user, status);

-- "Play someone now": one seek per account. state: waiting, claimed (being paired), matched
-- (game_id). seen_ms: the seeker's last poll; a seek not polled for a while is dropped.
-- claimed_ms: when it was claimed (a claim whose maker died is given up after a minute).
CREATE TABLE seeks (
    id INTEGER PRIMARY KEY,
    user_id BIGINT NOT NULL UNIQUE REFERENCES users(id),
    spec TEXT NOT NULL,
    system TEXT NOT NULL,
    shape TEXT NOT NULL,
    min_size BIGINT NOT NULL,
    max_size BIGINT NOT NULL,
    clock_kind TEXT NOT NULL,
    players BIGINT NOT NULL,
    rating BIGINT NOT NULL,
    min_rating BIGINT NOT NULL,
    max_rating BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    state TEXT NOT NULL,
    claimed_ms BIGINT,
    game_id BIGINT
);
CREATE INDEX seeks_pool ON seeks(state, system, players);

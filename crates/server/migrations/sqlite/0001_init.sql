-- Users: guests, registered players and bot accounts. password_hash is an argon2 PHC string.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    password_hash TEXT,
    owner BIGINT,
    created_ms BIGINT NOT NULL
);

-- Sessions and API tokens: only the SHA-256 of the token is stored.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Games: the settings (JSON), the lobby status and the stored clock.
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    creator BIGINT NOT NULL REFERENCES users(id),
    setup TEXT NOT NULL,
    status TEXT NOT NULL,
    public BIGINT NOT NULL,
    invite TEXT,
    clock TEXT,
    result TEXT,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT
);
CREATE INDEX games_status ON games(status);

CREATE TABLE seats (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    user_id BIGINT REFERENCES users(id),
    bot_level BIGINT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats(user_id);

-- The append-only action log: one row per acknowledged action, seq = 1, 2, 3, ... per game.
CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat(game_id);

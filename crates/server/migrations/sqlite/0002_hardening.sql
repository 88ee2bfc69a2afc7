-- Names compared as people read them: NFKC, case-folded, confusables mapped (filled in by the
-- server at start-up for accounts made before this column existed).
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_by_name_key ON users(name_key);

-- Browser sessions end; program tokens (kind 'api') do not (NULL).
ALTER TABLE sessions ADD COLUMN expires_ms BIGINT;
UPDATE sessions SET expires_ms = created_ms + 2592000000 WHERE kind = 'cookie';

-- Spectators admitted to a private game by its invite link (they may read it and chat).
CREATE TABLE admitted (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX games_open_created ON games(status, created_ms);

-- Chat in channels (docs/api.md, "Chat"): `players` (the seated players, read by everyone),
-- `spectators` (everyone else who may read the game; hidden from the players while it is
-- live) and `system` (joins, undo requests, rematches, time-outs: no author, so user_id may be
-- NULL). SQLite cannot drop a NOT NULL: the table is rebuilt with its rows.
CREATE TABLE chat_lines (
    id INTEGER PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id BIGINT REFERENCES users(id),
    channel TEXT NOT NULL DEFAULT 'players',
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
INSERT INTO chat_lines (id, game_id, user_id, channel, text, at_ms)
SELECT id, game_id, user_id, 'players', text, at_ms FROM chat;
DROP TABLE chat;
ALTER TABLE chat_lines RENAME TO chat;
CREATE INDEX chat_game ON chat(game_id);

-- The review tree of finished games (docs/api.md, "Review tree"): variations played from any
-- node (`parent`: the node reference's JSON, `{"at": k}` or `{"var": id}`) and comments on any
-- node. Ids count per game from 1. The same move at the same node is stored once (the unique
-- index), whoever plays it again gets the existing node.
CREATE TABLE review_variations (
    game_id BIGINT NOT NULL REFERENCES games(id),
    id BIGINT NOT NULL,
    parent TEXT NOT NULL,
    player BIGINT NOT NULL,
    input TEXT NOT NULL,
    author_id BIGINT NOT NULL REFERENCES users(id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, id)
);
CREATE UNIQUE INDEX review_variations_move ON review_variations(game_id, parent, player, input);
CREATE INDEX review_variations_author ON review_variations(game_id, author_id);
CREATE TABLE review_comments (
    game_id BIGINT NOT NULL REFERENCES games(id),
    id BIGINT NOT NULL,
    node TEXT NOT NULL,
    author_id BIGINT NOT NULL REFERENCES users(id),
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, id)
);
CREATE INDEX review_comments_author ON review_comments(game_id, author_id);

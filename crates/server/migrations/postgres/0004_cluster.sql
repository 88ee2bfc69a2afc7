-- Several instances on one database (issue 21). Each running instance, with the address the
-- others reach it at, seen at every lease renewal.
CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);

-- Who runs each game: its owner until expires_ms (the database's clock), renewed while the
-- owner lives. epoch grows at every change of owner; every write of the action log checks it
-- under this row's lock, so a former owner can never append after losing the lease.
CREATE TABLE game_leases (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX game_leases_owner ON game_leases(owner);

-- The secret instances show each other on their internal links: whoever can read the
-- database is trusted anyway.
CREATE TABLE cluster (
    id BIGINT PRIMARY KEY,
    secret TEXT NOT NULL
);

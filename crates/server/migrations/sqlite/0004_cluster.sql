-- Several instances share PostgreSQL only; an SQLite file has one instance, which owns every
-- game. The tables exist so that both schemas stay alike (see postgres/0004_cluster.sql).
CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started_ms INTEGER NOT NULL,
    seen_ms INTEGER NOT NULL
);

CREATE TABLE game_leases (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX game_leases_owner ON game_leases(owner);

CREATE TABLE cluster (
    id INTEGER PRIMARY KEY,
    secret TEXT NOT NULL
);

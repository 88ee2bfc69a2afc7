-- Moderation (issue 46, docs/moderation.md). A role per account; sanctions on the account
-- itself (a mute or suspension ends at its time, a ban does not), each with the reason the
-- player is shown.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'player';
ALTER TABLE users ADD COLUMN muted_until_ms BIGINT;
ALTER TABLE users ADD COLUMN mute_reason TEXT;
ALTER TABLE users ADD COLUMN suspended_until_ms BIGINT;
ALTER TABLE users ADD COLUMN suspension_reason TEXT;
ALTER TABLE users ADD COLUMN banned_ms BIGINT;
ALTER TABLE users ADD COLUMN ban_reason TEXT;

-- A deleted chat line stays for the moderators' record; nobody else reads it.
ALTER TABLE chat ADD COLUMN deleted_ms BIGINT;

-- Players' reports of a player, a chat line or a game, and how a moderator closed them.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    reporter BIGINT NOT NULL REFERENCES users(id),
    user_id BIGINT REFERENCES users(id),
    game_id BIGINT REFERENCES games(id),
    chat_id BIGINT REFERENCES chat(id),
    reason TEXT NOT NULL,
    text TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    closed_by BIGINT REFERENCES users(id),
    note TEXT,
    closed_ms BIGINT
);
CREATE INDEX reports_status ON reports(status, id);
CREATE INDEX reports_reporter ON reports(reporter, created_ms);

-- The audit log: every moderator's action, who, on whom, why, when (moderator NULL: the
-- command line, gobeyond admin).
CREATE TABLE moderation_log (
    id INTEGER PRIMARY KEY,
    moderator BIGINT REFERENCES users(id),
    user_id BIGINT REFERENCES users(id),
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    detail TEXT,
    until_ms BIGINT,
    at_ms BIGINT NOT NULL
);
CREATE INDEX moderation_log_user ON moderation_log(user_id, id);

-- Accounts made per client address (a SHA-256 of it), for the daily limit; rows older than a
-- day are deleted.
CREATE TABLE signups (
    address_hash TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX signups_address ON signups(address_hash, at_ms);

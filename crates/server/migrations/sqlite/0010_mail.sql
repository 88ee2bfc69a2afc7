-- Mail (issue 42): one address per account, confirmed by a mailed link, with the notices its
-- owner wants. address_key is the address in lower case (forgot-password looks it up).
CREATE TABLE mail_addresses (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    confirmed_ms BIGINT,
    your_turn BIGINT NOT NULL DEFAULT 1,
    idle_hours BIGINT NOT NULL DEFAULT 12,
    time_low BIGINT NOT NULL DEFAULT 1,
    time_low_hours BIGINT NOT NULL DEFAULT 12,
    challenge BIGINT NOT NULL DEFAULT 1,
    game_over BIGINT NOT NULL DEFAULT 1,
    digest BIGINT NOT NULL DEFAULT 0,
    digest_sent_ms BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);
CREATE INDEX mail_addresses_key ON mail_addresses(address_key);

-- Single-use links (confirm, reset) and unsubscribe links: only the SHA-256 of the token is
-- stored; a used one keeps its row until it expires, so that reuse is told apart from nonsense.
CREATE TABLE mail_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    purpose TEXT NOT NULL,
    address TEXT,
    notice TEXT,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    used_ms BIGINT
);
CREATE INDEX mail_tokens_user ON mail_tokens(user_id);

-- The outgoing mail: written when its event happens, sent by whichever instance claims it
-- (claimed_by until claim_until_ms), retried with backoff. The body's links are erased once
-- it is sent or given up.
CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    game_id BIGINT,
    to_address TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    due_ms BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    claimed_by TEXT,
    claim_until_ms BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    created_ms BIGINT NOT NULL,
    sent_ms BIGINT
);
CREATE INDEX mail_queue_due ON mail_queue(status, due_ms);
CREATE INDEX mail_queue_user ON mail_queue(user_id, created_ms);

-- Games waiting for a player with a confirmed address, since when (and the clock's deadline):
-- the your-turn, time-running-out and digest mails are read from here.
CREATE TABLE mail_waiting (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    seq BIGINT NOT NULL,
    since_ms BIGINT NOT NULL,
    deadline_ms BIGINT,
    turn_mailed BIGINT NOT NULL DEFAULT 0,
    time_mailed BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX mail_waiting_user ON mail_waiting(user_id);

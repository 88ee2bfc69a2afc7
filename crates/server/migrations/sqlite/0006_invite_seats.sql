-- Seats only the invite link (or, in a rematch, one named player) may take: the lobby's list of
-- open games leaves out games with no other free seat in its query, before its LIMIT (filtering
-- after it let 200 invitation-only games empty the list). Open games made before this column
-- read 0 here and are still filtered by the server after the query.
ALTER TABLE seats ADD COLUMN invite_only BIGINT NOT NULL DEFAULT 0;

-- A session that ends early (sign-out, a reused refresh token, a password reset, an account
-- deleted) is announced on the `sessions_revoked` channel with its id, whichever statement
-- ended it, once its transaction commits: every process closes that session's live sockets
-- at once instead of when the access token they were opened with expires (ADR 0021).
CREATE FUNCTION announce_sessions_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM pg_notify('sessions_revoked', n.id::text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.revoked_at IS NULL AND n.revoked_at IS NOT NULL;
  ELSE
    PERFORM pg_notify('sessions_revoked', o.id::text) FROM old_rows o WHERE o.revoked_at IS NULL;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_revoked_announce_update AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_sessions_revoked();--> statement-breakpoint
CREATE TRIGGER sessions_revoked_announce_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_sessions_revoked();

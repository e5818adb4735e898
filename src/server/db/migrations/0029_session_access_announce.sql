-- A session revoked, raised to aal2 or deleted (with its account), and every write to an MFA
-- factor, is announced on `session_access_changed` with the user's id once its transaction
-- commits, whichever statement made it: each app process drops what it holds of that user's
-- sessions (docs/decisions/0030-session-access-cache.md). Sign-in inserts and refreshes
-- change nothing a held row answers with and are not announced.
CREATE FUNCTION announce_session_access_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('session_access_changed', u.user_id::text)
    FROM (SELECT DISTINCT user_id FROM old_rows) u;
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    -- Only what a held row answers with: a refresh moves expires_at, which no held row
    -- outlives anyway, and refreshes are the most frequent session write.
    PERFORM pg_notify('session_access_changed', u.user_id::text)
    FROM (SELECT DISTINCT n.user_id FROM new_rows n JOIN old_rows o ON o.id = n.id
          WHERE n.aal IS DISTINCT FROM o.aal OR n.revoked_at IS DISTINCT FROM o.revoked_at) u;
  ELSE
    PERFORM pg_notify('session_access_changed', u.user_id::text)
    FROM (SELECT DISTINCT user_id FROM new_rows) u;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_access_announce_update AFTER UPDATE ON sessions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_access_changed();--> statement-breakpoint
CREATE TRIGGER sessions_access_announce_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_access_changed();--> statement-breakpoint
CREATE TRIGGER mfa_factors_access_announce_insert AFTER INSERT ON mfa_factors
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_access_changed();--> statement-breakpoint
CREATE TRIGGER mfa_factors_access_announce_update AFTER UPDATE ON mfa_factors
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_access_changed();--> statement-breakpoint
CREATE TRIGGER mfa_factors_access_announce_delete AFTER DELETE ON mfa_factors
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_session_access_changed();

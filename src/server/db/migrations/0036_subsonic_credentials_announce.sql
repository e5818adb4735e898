-- A write to a user's app passwords or roles, or a change of their email, is announced on
-- `subsonic_credentials_changed` with the user's id once its transaction commits, whichever
-- statement made it: each app process drops the Subsonic credentials it holds for that user
-- (docs/decisions/0034-subsonic.md, "Credentials held in memory").
CREATE FUNCTION announce_subsonic_credentials_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('subsonic_credentials_changed', u.id::text)
    FROM (SELECT DISTINCT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
          WHERE n.email IS DISTINCT FROM o.email) u;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('subsonic_credentials_changed', u.user_id::text)
    FROM (SELECT DISTINCT user_id FROM old_rows) u;
  ELSE
    PERFORM pg_notify('subsonic_credentials_changed', u.user_id::text)
    FROM (SELECT DISTINCT user_id FROM new_rows) u;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER subsonic_app_passwords_announce_insert AFTER INSERT ON subsonic_app_passwords
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_subsonic_credentials_changed();--> statement-breakpoint
CREATE TRIGGER subsonic_app_passwords_announce_delete AFTER DELETE ON subsonic_app_passwords
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_subsonic_credentials_changed();--> statement-breakpoint
CREATE TRIGGER user_roles_subsonic_announce_insert AFTER INSERT ON user_roles
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_subsonic_credentials_changed();--> statement-breakpoint
CREATE TRIGGER user_roles_subsonic_announce_delete AFTER DELETE ON user_roles
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_subsonic_credentials_changed();--> statement-breakpoint
CREATE TRIGGER users_subsonic_announce_email AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_subsonic_credentials_changed();

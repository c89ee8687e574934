-- Every write to a table that public responses read from (OSV API and feed, badges, pages) notifies channel
-- hubwatch_store once per statement; serve processes LISTEN and drop their cached responses. NOTIFY is
-- transactional (sent on commit, identical payloads folded), so a revision's many writes cost one message.
CREATE OR REPLACE FUNCTION hubwatch_notify_store_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hubwatch_store', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER repos_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "repos" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER revisions_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "revisions" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER advisories_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "advisories" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER badges_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "badges" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER changes_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "changes" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER estimates_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "estimates" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER behavior_changes_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "behavior_changes" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER findings_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "findings" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER revision_files_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "revision_files" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();
--> statement-breakpoint
CREATE TRIGGER estimator_drift_store_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "estimator_drift" FOR EACH STATEMENT EXECUTE FUNCTION hubwatch_notify_store_changed();

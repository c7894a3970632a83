DROP INDEX "audits_action_trgm";--> statement-breakpoint
DROP INDEX "audits_collection_trgm";--> statement-breakpoint
CREATE INDEX "audits_action" ON "audits" USING btree ("action");--> statement-breakpoint
CREATE INDEX "audits_collection" ON "audits" USING btree ("collection");--> statement-breakpoint
-- Every statement that changes a table tells the listening servers which table changed (sent when
-- its transaction commits): what they computed from that table is read afresh. A table created by
-- a later migration must get the same trigger (a test checks that every table has it).
CREATE FUNCTION "wfc_table_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('wfc_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format(
      'CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed()',
      t);
  END LOOP;
END
$$;

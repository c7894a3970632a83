-- The webhooks' outbox and delivery log tell the listening servers when they change, as every
-- table does (migration 0003): no kept read may outlive a change it did not see.
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "webhook_events" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "webhook_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();

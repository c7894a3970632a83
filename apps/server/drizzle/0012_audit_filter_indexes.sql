DROP INDEX "audits_action";--> statement-breakpoint
DROP INDEX "audits_collection";--> statement-breakpoint
CREATE INDEX "audits_action_created" ON "audits" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "audits_collection_action_created" ON "audits" USING btree ("collection","action","created_at");
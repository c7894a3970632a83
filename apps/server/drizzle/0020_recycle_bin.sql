CREATE TABLE "deleted_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deleted_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"collection" text NOT NULL,
	"record_code" text NOT NULL,
	"name" text NOT NULL,
	"owner_code" text,
	"record" jsonb NOT NULL,
	"rows" jsonb NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deleted_records_record" ON "deleted_records" USING btree ("collection","record_code");--> statement-breakpoint
CREATE INDEX "deleted_records_collection_deleted" ON "deleted_records" USING btree ("collection","deleted_at","id");--> statement-breakpoint
CREATE INDEX "deleted_records_deleted_at" ON "deleted_records" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "deleted_records_owner" ON "deleted_records" USING btree ("owner_code");--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003).
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "deleted_records" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();

CREATE TABLE "import_files" (
	"import_code" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"import_code" text NOT NULL,
	"module" text NOT NULL,
	"mode" text NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"sheet" text,
	"sheets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"layout" text,
	"status" text NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"asked_mapping" jsonb,
	"mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"counts" jsonb DEFAULT '{"rows":0,"create":0,"update":0,"unchanged":0,"errors":0,"skipped":0}'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"sample" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plan" jsonb,
	"checked_rows" integer DEFAULT 0 NOT NULL,
	"written_rows" integer DEFAULT 0 NOT NULL,
	"rows_per_second" real DEFAULT 0 NOT NULL,
	"skip_errors" boolean DEFAULT false NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"message" text,
	"principal" jsonb,
	"created_by_code" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	CONSTRAINT "imports_import_code_unique" UNIQUE("import_code")
);
--> statement-breakpoint
ALTER TABLE "import_files" ADD CONSTRAINT "import_files_import_code_imports_import_code_fk" FOREIGN KEY ("import_code") REFERENCES "public"."imports"("import_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_created" ON "imports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "imports_module_created" ON "imports" USING btree ("module","created_at");--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003).
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "imports" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "import_files" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();

CREATE TABLE "performance_grid" (
	"date" date NOT NULL,
	"employee_code" text NOT NULL,
	"performance_code" text,
	"daily" double precision,
	"monthly" double precision,
	"yearly" double precision,
	CONSTRAINT "performance_grid_employee_code_date_pk" PRIMARY KEY("employee_code","date")
);
--> statement-breakpoint
CREATE TABLE "performance_grid_dates" (
	"date" date PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "performance_grid" ADD CONSTRAINT "performance_grid_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "performance_grid_daily_asc" ON "performance_grid" USING btree ("date","daily");--> statement-breakpoint
CREATE INDEX "performance_grid_daily_desc" ON "performance_grid" USING btree ("date","daily" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "performance_grid_monthly_asc" ON "performance_grid" USING btree ("date","monthly");--> statement-breakpoint
CREATE INDEX "performance_grid_monthly_desc" ON "performance_grid" USING btree ("date","monthly" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "performance_grid_yearly_asc" ON "performance_grid" USING btree ("date","yearly");--> statement-breakpoint
CREATE INDEX "performance_grid_yearly_desc" ON "performance_grid" USING btree ("date","yearly" DESC NULLS LAST);--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_grid" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_grid_dates" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();

CREATE TABLE "performance_month_days" (
	"employee_code" text NOT NULL,
	"month" date NOT NULL,
	"days" text NOT NULL,
	CONSTRAINT "performance_month_days_employee_code_month_pk" PRIMARY KEY("employee_code","month")
);
--> statement-breakpoint
ALTER TABLE "performance_month_days" ADD CONSTRAINT "performance_month_days_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_month_days" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
-- Every month's days as performance/sql.ts `dayJson` writes them (the rebuild writes the same).
INSERT INTO "performance_month_days" ("employee_code", "month", "days")
SELECT "employee_code", date_trunc('month', "date")::date,
  string_agg('{"date":"' || "date"::text || '","daily":' || round(round("daily_average", 20), 2)::text || '}', ',' ORDER BY "date")
FROM "performances"
WHERE "daily_average" IS NOT NULL
GROUP BY 1, 2
ORDER BY 1, 2;--> statement-breakpoint
ANALYZE "performance_month_days";

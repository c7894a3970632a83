CREATE TABLE "department_managers" (
	"department_code" text NOT NULL,
	"employee_code" text NOT NULL,
	CONSTRAINT "department_managers_department_code_employee_code_pk" PRIMARY KEY("department_code","employee_code")
);
--> statement-breakpoint
ALTER TABLE "role_permissions" ADD COLUMN "scope" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "department_managers" ADD CONSTRAINT "department_managers_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "department_managers" ADD CONSTRAINT "department_managers_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "department_managers_employee" ON "department_managers" USING btree ("employee_code","department_code");--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_scope_check" CHECK ("scope" IN ('all', 'team', 'own'));--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003).
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "department_managers" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();
CREATE TABLE "performance_months" (
	"employee_code" text NOT NULL,
	"month" date NOT NULL,
	"day_sum" numeric(36, 30) NOT NULL,
	"day_count" smallint NOT NULL,
	"year_sum" numeric(36, 30) NOT NULL,
	"year_days" integer NOT NULL,
	CONSTRAINT "performance_months_employee_code_month_pk" PRIMARY KEY("employee_code","month")
);
--> statement-breakpoint
ALTER TABLE "performances" ALTER COLUMN "daily_average" SET DATA TYPE numeric(36, 30);--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "month_sum" numeric(36, 30) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "month_days" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "performance_months" ADD CONSTRAINT "performance_months_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;
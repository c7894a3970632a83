ALTER TABLE "audits" ADD COLUMN "record_code" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "performances" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "departments" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "genders" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "skills" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "states" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Entries written before this migration name their record inside before/after only.
UPDATE "audits" SET "record_code" = coalesce("after", "before") ->> (CASE "collection"
  WHEN 'roles' THEN 'roleCode' WHEN 'users' THEN 'userCode' WHEN 'genders' THEN 'genderCode'
  WHEN 'countries' THEN 'countryCode' WHEN 'states' THEN 'stateCode' WHEN 'cities' THEN 'cityCode'
  WHEN 'profiles' THEN 'profileCode' WHEN 'departments' THEN 'departmentCode'
  WHEN 'skills' THEN 'skillCode' WHEN 'employees' THEN 'employeeCode'
  WHEN 'performances' THEN 'performanceCode' END)
WHERE "collection" IN ('roles', 'users', 'genders', 'countries', 'states', 'cities', 'profiles',
  'departments', 'skills', 'employees', 'performances');--> statement-breakpoint
CREATE INDEX "audits_record" ON "audits" USING btree ("collection","record_code","id");
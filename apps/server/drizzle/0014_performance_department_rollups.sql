CREATE TABLE "performance_bucket_changes" (
	"employee_code" text NOT NULL,
	"date" date NOT NULL,
	"bucket" smallint NOT NULL,
	"previous" smallint,
	CONSTRAINT "performance_bucket_changes_employee_code_date_pk" PRIMARY KEY("employee_code","date")
);
--> statement-breakpoint
CREATE TABLE "performance_department_bucket_months" (
	"department_code" text NOT NULL,
	"month" date NOT NULL,
	"bucket" smallint NOT NULL,
	"employees" integer NOT NULL,
	CONSTRAINT "performance_department_bucket_months_department_code_month_bucket_pk" PRIMARY KEY("department_code","month","bucket")
);
--> statement-breakpoint
CREATE TABLE "performance_department_buckets" (
	"department_code" text NOT NULL,
	"date" date NOT NULL,
	"bucket" smallint NOT NULL,
	"employees" integer NOT NULL,
	CONSTRAINT "performance_department_buckets_department_code_date_bucket_pk" PRIMARY KEY("department_code","date","bucket")
);
--> statement-breakpoint
CREATE TABLE "performance_department_days" (
	"department_code" text NOT NULL,
	"date" date NOT NULL,
	"daily_sum" numeric(36, 30) NOT NULL,
	"days" integer NOT NULL,
	CONSTRAINT "performance_department_days_department_code_date_pk" PRIMARY KEY("department_code","date")
);
--> statement-breakpoint
CREATE TABLE "performance_department_months" (
	"department_code" text NOT NULL,
	"month" date NOT NULL,
	"daily_sum" numeric(36, 30) NOT NULL,
	"days" integer NOT NULL,
	CONSTRAINT "performance_department_months_department_code_month_pk" PRIMARY KEY("department_code","month")
);
--> statement-breakpoint
CREATE TABLE "performance_overall_skill_days" (
	"date" date NOT NULL,
	"skill_code" text NOT NULL,
	"points_sum" integer NOT NULL,
	"scored" integer NOT NULL,
	CONSTRAINT "performance_overall_skill_days_date_skill_code_pk" PRIMARY KEY("date","skill_code")
);
--> statement-breakpoint
CREATE TABLE "performance_overall_skill_months" (
	"month" date NOT NULL,
	"skill_code" text NOT NULL,
	"points_sum" integer NOT NULL,
	"scored" integer NOT NULL,
	CONSTRAINT "performance_overall_skill_months_month_skill_code_pk" PRIMARY KEY("month","skill_code")
);
--> statement-breakpoint
ALTER TABLE "performance_bucket_changes" ADD CONSTRAINT "performance_bucket_changes_employee_code_employees_employee_code_fk" FOREIGN KEY ("employee_code") REFERENCES "public"."employees"("employee_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_department_bucket_months" ADD CONSTRAINT "performance_department_bucket_months_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_department_buckets" ADD CONSTRAINT "performance_department_buckets_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_department_days" ADD CONSTRAINT "performance_department_days_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_department_months" ADD CONSTRAINT "performance_department_months_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_overall_skill_days" ADD CONSTRAINT "performance_overall_skill_days_skill_code_skills_skill_code_fk" FOREIGN KEY ("skill_code") REFERENCES "public"."skills"("skill_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_overall_skill_months" ADD CONSTRAINT "performance_overall_skill_months_skill_code_skills_skill_code_fk" FOREIGN KEY ("skill_code") REFERENCES "public"."skills"("skill_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "performance_department_bucket_months_month" ON "performance_department_bucket_months" USING btree ("month");--> statement-breakpoint
CREATE INDEX "performance_department_buckets_date" ON "performance_department_buckets" USING btree ("date");--> statement-breakpoint
CREATE INDEX "performance_department_days_date" ON "performance_department_days" USING btree ("date");--> statement-breakpoint
CREATE INDEX "performance_department_months_month" ON "performance_department_months" USING btree ("month");--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003): kept overviews are
-- read afresh once these tables move.
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_department_days" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_overall_skill_days" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_overall_skill_months" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_department_months" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_department_bucket_months" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_bucket_changes" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_department_buckets" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
-- The skill sums already kept, over every department.
INSERT INTO "performance_overall_skill_days" ("date", "skill_code", "points_sum", "scored")
SELECT "date", "skill_code", sum("points_sum")::int, sum("scored")::int
FROM "performance_skill_days"
GROUP BY 1, 2
ORDER BY 1, 2;--> statement-breakpoint
INSERT INTO "performance_overall_skill_months" ("month", "skill_code", "points_sum", "scored")
SELECT "month", "skill_code", sum("points_sum")::int, sum("scored")::int
FROM "performance_department_skill_months"
GROUP BY 1, 2
ORDER BY 1, 2;--> statement-breakpoint
ANALYZE "performance_overall_skill_days";--> statement-breakpoint
ANALYZE "performance_overall_skill_months";--> statement-breakpoint
-- The daily averages already kept.
INSERT INTO "performance_department_days" ("department_code", "date", "daily_sum", "days")
SELECT e."department_code", p."date", sum(p."daily_average"), count(p."daily_average")::int
FROM "performances" p JOIN "employees" e ON e."employee_code" = p."employee_code"
WHERE p."daily_average" IS NOT NULL
GROUP BY 1, 2
ORDER BY 1, 2;--> statement-breakpoint
ANALYZE "performance_department_days";--> statement-breakpoint
INSERT INTO "performance_department_months" ("department_code", "month", "daily_sum", "days")
SELECT "department_code", date_trunc('month', "date")::date, sum("daily_sum"), sum("days")::int
FROM "performance_department_days"
GROUP BY 1, 2
ORDER BY 1, 2;--> statement-breakpoint
ANALYZE "performance_department_months";--> statement-breakpoint
-- Each scored date's yearly average is the year before its month (the month row's running year
-- sum less the month's own) plus the date's running month sum, bucketed as the overview rounds it.
INSERT INTO "performance_bucket_changes" ("employee_code", "date", "bucket", "previous")
SELECT s."employee_code", s."date", s."bucket", s."previous"
FROM (
  SELECT v."employee_code", v."date", v."bucket",
    lag(v."bucket") OVER (PARTITION BY v."employee_code", date_trunc('year', v."date") ORDER BY v."date") AS "previous"
  FROM (
    SELECT p."employee_code", p."date",
      least(floor(round(round((m."year_sum" - m."day_sum" + p."month_sum")
        / (m."year_days" - m."day_count" + p."month_days"), 20), 2)), 9)::smallint AS "bucket"
    FROM "performances" p
    JOIN "performance_months" m ON m."employee_code" = p."employee_code"
      AND m."month" = date_trunc('month', p."date")::date
    WHERE p."daily_average" IS NOT NULL
  ) v
) s
WHERE s."bucket" IS DISTINCT FROM s."previous"
ORDER BY 1, 2;--> statement-breakpoint
ANALYZE "performance_bucket_changes";--> statement-breakpoint
INSERT INTO "performance_department_buckets" ("department_code", "date", "bucket", "employees")
SELECT e."department_code", x."date", x."bucket", sum(x."n")::int
FROM (
  SELECT "employee_code", "date", "bucket", 1 AS "n" FROM "performance_bucket_changes"
  UNION ALL
  SELECT "employee_code", "date", "previous", -1 FROM "performance_bucket_changes" WHERE "previous" IS NOT NULL
) x
JOIN "employees" e ON e."employee_code" = x."employee_code"
GROUP BY 1, 2, 3
HAVING sum(x."n") <> 0
ORDER BY 1, 2, 3;--> statement-breakpoint
ANALYZE "performance_department_buckets";--> statement-breakpoint
INSERT INTO "performance_department_bucket_months" ("department_code", "month", "bucket", "employees")
SELECT "department_code", date_trunc('month', "date")::date, "bucket", sum("employees")::int
FROM "performance_department_buckets"
GROUP BY 1, 2, 3
HAVING sum("employees") <> 0
ORDER BY 1, 2, 3;--> statement-breakpoint
ANALYZE "performance_department_bucket_months";--> statement-breakpoint
-- As in migration 0013, now moving the employee's daily averages (days, then months) and yearly
-- buckets (days, then months) too, first: a save writes those, in that order, before its skill
-- rollups; and on a deletion, after the department skill sums, taking the employee's scores out of
-- everyone's, as a save writes them. Every writer takes each table's rows in key order, so that
-- none waits for another in a cycle.
CREATE OR REPLACE FUNCTION "performance_skill_days_move"(p_employee text, p_from text, p_to text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO performance_department_days AS d (department_code, date, daily_sum, days)
  SELECT x.department_code, p.date, x.sign * p.daily_average, x.sign
  FROM performances p
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE p.employee_code = p_employee AND p.daily_average IS NOT NULL AND x.department_code IS NOT NULL
  ORDER BY 1, 2
  ON CONFLICT (department_code, date) DO UPDATE
    SET daily_sum = d.daily_sum + excluded.daily_sum, days = d.days + excluded.days;
  INSERT INTO performance_department_months AS m (department_code, month, daily_sum, days)
  SELECT x.department_code, m.month, x.sign * m.day_sum, x.sign * m.day_count
  FROM performance_months m
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE m.employee_code = p_employee AND m.day_count > 0 AND x.department_code IS NOT NULL
  ORDER BY 1, 2
  ON CONFLICT (department_code, month) DO UPDATE
    SET daily_sum = m.daily_sum + excluded.daily_sum, days = m.days + excluded.days;
  INSERT INTO performance_department_buckets AS b (department_code, date, bucket, employees)
  SELECT x.department_code, c.date, c.bucket, sum(x.sign * c.n)::int
  FROM (
    SELECT date, bucket, 1 AS n FROM performance_bucket_changes WHERE employee_code = p_employee
    UNION ALL
    SELECT date, previous, -1 FROM performance_bucket_changes
    WHERE employee_code = p_employee AND previous IS NOT NULL
  ) c
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE x.department_code IS NOT NULL
  GROUP BY 1, 2, 3
  HAVING sum(x.sign * c.n) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (department_code, date, bucket) DO UPDATE SET employees = b.employees + excluded.employees;
  INSERT INTO performance_department_bucket_months AS b (department_code, month, bucket, employees)
  SELECT x.department_code, date_trunc('month', c.date)::date, c.bucket, sum(x.sign * c.n)::int
  FROM (
    SELECT date, bucket, 1 AS n FROM performance_bucket_changes WHERE employee_code = p_employee
    UNION ALL
    SELECT date, previous, -1 FROM performance_bucket_changes
    WHERE employee_code = p_employee AND previous IS NOT NULL
  ) c
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE x.department_code IS NOT NULL
  GROUP BY 1, 2, 3
  HAVING sum(x.sign * c.n) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (department_code, month, bucket) DO UPDATE SET employees = b.employees + excluded.employees;
  INSERT INTO performance_skill_days AS d (department_code, date, skill_code, points_sum, scored)
  SELECT x.department_code, s.date, s.skill_code, x.sign * s.points_sum, x.sign * s.scored
  FROM (
    SELECT p.date, ps.skill_code, sum(ps.points)::int AS points_sum, count(ps.points)::int AS scored
    FROM performances p JOIN performance_scores ps ON ps.performance_code = p.performance_code
    WHERE p.employee_code = p_employee AND ps.points IS NOT NULL
    GROUP BY p.date, ps.skill_code
  ) s
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE x.department_code IS NOT NULL
  ORDER BY 1, 2, 3
  ON CONFLICT (department_code, date, skill_code) DO UPDATE
    SET points_sum = d.points_sum + excluded.points_sum, scored = d.scored + excluded.scored;
  DELETE FROM performance_skill_days d
  WHERE d.department_code = p_from AND d.scored = 0
    AND d.date = ANY (ARRAY(SELECT p.date FROM performances p WHERE p.employee_code = p_employee));
  INSERT INTO performance_department_skill_months AS m (department_code, month, skill_code, points_sum, scored)
  SELECT x.department_code, s.month, k.skill_code, x.sign * s.points_sum, x.sign * s.scored
  FROM performance_skill_months s
  JOIN employees e ON e.id = s.employee_id
  JOIN skills k ON k.id = s.skill_id
  CROSS JOIN (VALUES (p_from, -1), (p_to, 1)) AS x(department_code, sign)
  WHERE e.employee_code = p_employee AND x.department_code IS NOT NULL
  ORDER BY 1, 2, 3
  ON CONFLICT (department_code, month, skill_code) DO UPDATE
    SET points_sum = m.points_sum + excluded.points_sum, scored = m.scored + excluded.scored;
  DELETE FROM performance_department_skill_months m
  WHERE m.department_code = p_from AND m.scored = 0;
  -- Everyone's sums change only when the employee goes, not when they move.
  IF p_to IS NULL THEN
    INSERT INTO performance_overall_skill_days AS d (date, skill_code, points_sum, scored)
    SELECT p.date, ps.skill_code, -sum(ps.points)::int, -count(ps.points)::int
    FROM performances p JOIN performance_scores ps ON ps.performance_code = p.performance_code
    WHERE p.employee_code = p_employee AND ps.points IS NOT NULL
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (date, skill_code) DO UPDATE
      SET points_sum = d.points_sum + excluded.points_sum, scored = d.scored + excluded.scored;
    DELETE FROM performance_overall_skill_days d
    WHERE d.scored = 0
      AND d.date = ANY (ARRAY(SELECT p.date FROM performances p WHERE p.employee_code = p_employee));
    INSERT INTO performance_overall_skill_months AS m (month, skill_code, points_sum, scored)
    SELECT s.month, k.skill_code, -s.points_sum, -s.scored
    FROM performance_skill_months s
    JOIN employees e ON e.id = s.employee_id
    JOIN skills k ON k.id = s.skill_id
    WHERE e.employee_code = p_employee
    ORDER BY 1, 2
    ON CONFLICT (month, skill_code) DO UPDATE
      SET points_sum = m.points_sum + excluded.points_sum, scored = m.scored + excluded.scored;
    DELETE FROM performance_overall_skill_months m WHERE m.scored = 0;
  END IF;
END
$$;

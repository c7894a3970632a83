CREATE TABLE "performance_department_skill_months" (
	"department_code" text NOT NULL,
	"month" date NOT NULL,
	"skill_code" text NOT NULL,
	"points_sum" integer NOT NULL,
	"scored" integer NOT NULL,
	CONSTRAINT "performance_department_skill_months_department_code_month_skill_code_pk" PRIMARY KEY("department_code","month","skill_code")
);
--> statement-breakpoint
CREATE TABLE "performance_skill_months" (
	"employee_id" bigint NOT NULL,
	"month" date NOT NULL,
	"skill_id" bigint NOT NULL,
	"points_sum" integer NOT NULL,
	"scored" integer NOT NULL,
	CONSTRAINT "performance_skill_months_employee_id_month_skill_id_pk" PRIMARY KEY("employee_id","month","skill_id")
);
--> statement-breakpoint
ALTER TABLE "performance_department_skill_months" ADD CONSTRAINT "performance_department_skill_months_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_department_skill_months" ADD CONSTRAINT "performance_department_skill_months_skill_code_skills_skill_code_fk" FOREIGN KEY ("skill_code") REFERENCES "public"."skills"("skill_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_skill_months" ADD CONSTRAINT "performance_skill_months_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_skill_months" ADD CONSTRAINT "performance_skill_months_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003): kept trends and
-- overviews are read afresh once these tables move.
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_skill_months" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_department_skill_months" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
-- A save adds to its rows in place: room on each page keeps those updates on the page.
ALTER TABLE "performance_skill_months" SET (fillfactor = 80);--> statement-breakpoint
-- The scores already saved. Cells without points (a bulk loader's) are not scores.
INSERT INTO "performance_skill_months" ("employee_id", "month", "skill_id", "points_sum", "scored")
SELECT e."id", date_trunc('month', p."date")::date, k."id", sum(ps."points")::int, count(ps."points")::int
FROM "performance_scores" ps
JOIN "performances" p ON p."performance_code" = ps."performance_code"
JOIN "employees" e ON e."employee_code" = p."employee_code"
JOIN "skills" k ON k."skill_code" = ps."skill_code"
WHERE ps."points" IS NOT NULL
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;--> statement-breakpoint
ANALYZE "performance_skill_months";--> statement-breakpoint
INSERT INTO "performance_department_skill_months" ("department_code", "month", "skill_code", "points_sum", "scored")
SELECT "department_code", date_trunc('month', "date")::date, "skill_code", sum("points_sum")::int, sum("scored")::int
FROM "performance_skill_days"
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;--> statement-breakpoint
ANALYZE "performance_department_skill_months";--> statement-breakpoint
-- As in migration 0011, now moving the employee's month sums too, from the employee's own skill
-- months, after the days: every writer takes the day rows, then the month rows, each in key
-- order, so that none waits for another in a cycle.
CREATE OR REPLACE FUNCTION "performance_skill_days_move"(p_employee text, p_from text, p_to text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
END
$$;--> statement-breakpoint
-- A trend's days read an employee's daily averages from the index alone, without visiting the
-- rows: a year of one employee's rows lies on 365 pages, since the table is kept in date order for
-- a date's grid. Only a save's changed rows update the column (their later rows' running sums do
-- not), so those alone leave their page.
DROP INDEX "performances_employee_date";--> statement-breakpoint
CREATE UNIQUE INDEX "performances_employee_date" ON "performances" USING btree ("employee_code","date") INCLUDE ("daily_average");--> statement-breakpoint
-- A row has one score per skill, about 20, but the sampled statistics of a large table put it at
-- about 190 (they see too few of the 1.8 million codes to count them): every join from rows to
-- their scores then looks ten times its cost, enough for the planner to start parallel workers
-- (40 ms) for a trend's few dozen scores. Scores per row are a fraction of the rows, whatever the
-- volume, so the estimate is given as one.
ALTER TABLE "performance_scores" ALTER COLUMN "performance_code" SET (n_distinct = -0.05);--> statement-breakpoint
ANALYZE "performance_scores";

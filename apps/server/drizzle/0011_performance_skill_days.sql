CREATE TABLE "performance_skill_days" (
	"department_code" text NOT NULL,
	"date" date NOT NULL,
	"skill_code" text NOT NULL,
	"points_sum" integer NOT NULL,
	"scored" integer NOT NULL,
	CONSTRAINT "performance_skill_days_department_code_date_skill_code_pk" PRIMARY KEY("department_code","date","skill_code")
);
--> statement-breakpoint
ALTER TABLE "performance_skill_days" ADD CONSTRAINT "performance_skill_days_department_code_departments_department_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("department_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_skill_days" ADD CONSTRAINT "performance_skill_days_skill_code_skills_skill_code_fk" FOREIGN KEY ("skill_code") REFERENCES "public"."skills"("skill_code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "performance_skill_days_date" ON "performance_skill_days" USING btree ("date");--> statement-breakpoint
-- Every table tells the listening servers when it changes (migration 0003): a kept overview is
-- read afresh once this table moves.
CREATE TRIGGER wfc_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "performance_skill_days" FOR EACH STATEMENT EXECUTE FUNCTION wfc_table_changed();--> statement-breakpoint
-- The scores already saved. Cells without points (a bulk loader's) are not scores.
INSERT INTO "performance_skill_days" ("department_code", "date", "skill_code", "points_sum", "scored")
SELECT e."department_code", p."date", ps."skill_code", sum(ps."points")::int, count(ps."points")::int
FROM "performance_scores" ps
JOIN "performances" p ON p."performance_code" = ps."performance_code"
JOIN "employees" e ON e."employee_code" = p."employee_code"
WHERE ps."points" IS NOT NULL
GROUP BY 1, 2, 3
ORDER BY 2, 1, 3;--> statement-breakpoint
ANALYZE "performance_skill_days";--> statement-breakpoint
-- Moves one employee's scores from a department's rows (p_from) to another's (p_to; null: takes
-- them away). Rows are written in (department, date, skill) order, as a save writes them, so that
-- neither can wait for the other in a cycle. A row left without scores goes, so a department or
-- skill without scores has none.
CREATE FUNCTION "performance_skill_days_move"(p_employee text, p_from text, p_to text)
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
END
$$;--> statement-breakpoint
-- An employee's scores count in their current department: a move takes them from the old one to
-- the new one, a deletion (whose cascade then deletes the scores) takes them away, in the
-- statement's own transaction, whoever changes the employee.
CREATE FUNCTION "performance_skill_days_employee"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM performance_skill_days_move(OLD.employee_code, OLD.department_code, NULL);
    RETURN OLD;
  END IF;
  PERFORM performance_skill_days_move(OLD.employee_code, OLD.department_code, NEW.department_code);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "performance_skill_days_employee_delete" BEFORE DELETE ON "employees"
  FOR EACH ROW EXECUTE FUNCTION performance_skill_days_employee();--> statement-breakpoint
CREATE TRIGGER "performance_skill_days_employee_department" AFTER UPDATE OF "department_code" ON "employees"
  FOR EACH ROW WHEN (OLD."department_code" IS DISTINCT FROM NEW."department_code")
  EXECUTE FUNCTION performance_skill_days_employee();

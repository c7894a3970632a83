/*
 * The trigger SQL that keeps the summaries in step when an employee moves to another department
 * or is deleted, owned here beside the save's upkeep (departments.ts, buckets.ts, skills.ts) that
 * writes the same tables in the same key order. The migrations that created it (0011, 0013, 0014)
 * hold copies; a migration that changes it is written with `summaryTriggerMigration()`, and
 * test/unit/performance/triggers.test.ts checks that the latest migration defining each function
 * holds exactly this text.
 */

/** A trigger function: its name and its whole `CREATE OR REPLACE FUNCTION` statement, unterminated. */
export interface TriggerFunction {
  name: string;
  sql: string;
}

/**
 * Moves an employee's share of the department summaries from `p_from` to `p_to` (null: the
 * employee goes, and everyone's skill sums lose it too): daily averages (days, then months) and
 * yearly buckets (days, then months) first, as a save writes those before its skill summaries;
 * every writer takes each table's rows in key order, so that none waits for another in a cycle.
 */
const MOVE: TriggerFunction = {
  name: 'performance_skill_days_move',
  sql: `CREATE OR REPLACE FUNCTION "performance_skill_days_move"(p_employee text, p_from text, p_to text)
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
$$`,
};

/**
 * An employee's scores count in their current department: a move takes them from the old one to
 * the new one, a deletion (whose cascade then deletes the scores) takes them away, in the
 * statement's own transaction, whoever changes the employee.
 */
const ON_EMPLOYEE: TriggerFunction = {
  name: 'performance_skill_days_employee',
  sql: `CREATE OR REPLACE FUNCTION "performance_skill_days_employee"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM performance_skill_days_move(OLD.employee_code, OLD.department_code, NULL);
    RETURN OLD;
  END IF;
  PERFORM performance_skill_days_move(OLD.employee_code, OLD.department_code, NEW.department_code);
  RETURN NULL;
END
$$`,
};

/** Every summary trigger function, in the order a migration creates them (the trigger's calls the move). */
export const SUMMARY_TRIGGER_FUNCTIONS: readonly TriggerFunction[] = [MOVE, ON_EMPLOYEE];

/** The statements of a migration that re-applies every summary trigger function from here. */
export const summaryTriggerMigration = (): string =>
  `${SUMMARY_TRIGGER_FUNCTIONS.map((f) => `${f.sql};`).join('--> statement-breakpoint\n')}\n`;

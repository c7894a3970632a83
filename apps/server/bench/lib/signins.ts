/**
 * The plan and the verdicts of the sign-ins-at-scale scenario (`bench --only signins`): pure, so
 * that a unit test can hold them.
 */

/** Teams of about this many people, each a department with one manager: a manager's grid. */
export const TEAM_SIZE = 100;
/** What the scenario adds to the benchmark data for a run, and takes away again. */
export const TEAM_DEPARTMENT = 'DEPT-BENCHTEAM';
export const TEAM_LEAD_ROLE = 'ROLE-BENCHTEAMLEAD';
/** Moves of employees that leave the department summaries as they are (see bench/run.ts `teamsUp`). */
export const MOVE_TRIGGER = 'performance_skill_days_employee_department';

/** When each of `count` sign-ins starts, in ms from the start: evenly over the window. */
export function signInSchedule(count: number, windowMs: number): number[] {
  if (count <= 0) return [];
  return Array.from({ length: count }, (_, i) => Math.round((i * windowMs) / count));
}

/** Teams of about `size` people out of `employees`: how many, at least one. */
export const teamCount = (employees: number, size: number) =>
  Math.max(1, Math.round(employees / Math.max(1, size)));

/** A team's scores for one save: every member, every skill, values that move with `seed`. */
export function teamBatch(members: readonly string[], skills: readonly string[], date: string, seed: number) {
  return members.map((employeeCode, i) => ({
    employeeCode,
    date,
    performancePerSkill: skills.map((skillCode, j) => ({
      skillCode,
      pointsEarned: String((i * 7 + j * 3 + seed) % 11),
      totalPoints: 10,
    })),
  }));
}

export interface SignInFigures {
  /** The managers' save p99 without sign-ins, and while they run (ms). */
  saveP99Alone: number;
  saveP99During: number;
  /** Errors of every kind in both phases: failed saves, failed sign-ins, timeouts. */
  errors: number;
  signIns: { planned: number; succeeded: number; windowS: number; lastAnswerS: number };
  /** Requests/s of the scoped page (a manager, a team of about 100) and of the unscoped one. */
  scopedRps: number;
  unscopedRps: number;
}

export interface Verdict {
  measure: string;
  value: string;
  target: string;
  met: boolean;
}

/** Slack for the last answer after the window closes: it was sent just before. */
const LAST_ANSWER_SLACK_S = 5;
/** A ratio of two request rates measured a minute apart on a shared machine moves by about this. */
export const PAGE_RATIO_NOISE = 0.9;

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.POSITIVE_INFINITY);

/** The targets against the figures of one run. */
export function signInVerdicts(f: SignInFigures): Verdict[] {
  const saveRatio = ratio(f.saveP99During, f.saveP99Alone);
  const pageRatio = ratio(f.scopedRps, f.unscopedRps);
  const s = f.signIns;
  return [
    {
      measure: 'sign-ins answered 200',
      value: `${s.succeeded} / ${s.planned} in ${s.lastAnswerS.toFixed(0)} s`,
      target: `all within ${s.windowS} s`,
      met: s.succeeded === s.planned && s.lastAnswerS <= s.windowS + LAST_ANSWER_SLACK_S,
    },
    { measure: 'errors', value: String(f.errors), target: '0', met: f.errors === 0 },
    {
      measure: 'save p99 during / alone',
      value: `${saveRatio.toFixed(2)} (${f.saveP99During.toFixed(0)} / ${f.saveP99Alone.toFixed(0)} ms)`,
      target: '<= 2',
      met: saveRatio <= 2,
    },
    {
      measure: 'scoped / unscoped page req/s',
      value: `${pageRatio.toFixed(2)} (${f.scopedRps.toFixed(0)} / ${f.unscopedRps.toFixed(0)})`,
      target: `>= 1 (${PAGE_RATIO_NOISE} for noise)`,
      met: pageRatio >= PAGE_RATIO_NOISE,
    },
  ];
}

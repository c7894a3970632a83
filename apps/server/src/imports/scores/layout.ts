import { IMPORT_MESSAGES, type ImportError, SCORE_FIELDS, type ScoreLayout } from '@wfc/contract';

/** A wide column: the index of a column mapped to one skill. */
export interface SkillColumn {
  index: number;
  skillCode: string;
}

/** Where a score file's values are, by column index. */
export interface ScoreColumns {
  layout: ScoreLayout;
  employeeId: number;
  date: number;
  /** Long: the Skill and Score columns. */
  skill: number;
  score: number;
  /** Wide: one column per skill, in the file's order. */
  skills: SkillColumn[];
}

export const SKILL_FIELD_PREFIX = 'skill:';

export const LAYOUT_MESSAGES = {
  noScores: 'Map a column to each skill scored (one column per skill), or columns to Skill and Score',
  bothLayouts:
    'Map columns either to Skill and Score (one row per skill) or to the skills themselves (one column per skill), not both',
  mappedTwice: 'Two columns are mapped to the same field',
} as const;

const FIELD_LABELS: Record<string, string> = {
  employeeId: 'Employee Id',
  date: 'Date',
  skill: 'Skill',
  score: 'Score',
};

const fileError = (message: string): ImportError => ({ row: 1, column: null, message });
const unmapped = (key: keyof typeof FIELD_LABELS) =>
  fileError(`${IMPORT_MESSAGES.unmappedKey} ${FIELD_LABELS[key]}`);

/**
 * Pure: how a score file lays its scores out, told by its mapping: `long` when columns are mapped
 * to Skill and Score (one row per employee, date and skill), `wide` when columns are mapped to
 * skills (one row per employee and date). Anything else is an error of the file as a whole, at
 * its header (row 1): Employee Id and Date unmapped, no scores at all, half of the long layout,
 * both layouts at once, or two columns mapped to one field.
 */
export function scoreLayout(
  mapping: readonly (string | null)[],
  fields: readonly { key: string; label: string }[] = [],
): ScoreColumns | { errors: ImportError[] } {
  const labelOf = (key: string) => fields.find((f) => f.key === key)?.label ?? FIELD_LABELS[key] ?? key;
  const at = (key: string) => mapping.indexOf(key);
  const employeeId = at(SCORE_FIELDS.employeeId);
  const date = at(SCORE_FIELDS.date);
  const skill = at(SCORE_FIELDS.skill);
  const score = at(SCORE_FIELDS.score);
  const skills: SkillColumn[] = [];
  mapping.forEach((key, index) => {
    if (key?.startsWith(SKILL_FIELD_PREFIX))
      skills.push({ index, skillCode: key.slice(SKILL_FIELD_PREFIX.length) });
  });
  const errors: ImportError[] = [];
  const twice = mapping.filter((key, i): key is string => key !== null && mapping.indexOf(key) !== i);
  for (const key of new Set(twice)) errors.push(fileError(`${LAYOUT_MESSAGES.mappedTwice}: ${labelOf(key)}`));
  if (employeeId < 0) errors.push(unmapped('employeeId'));
  if (date < 0) errors.push(unmapped('date'));
  const long = skill >= 0 || score >= 0;
  if (long && skills.length) errors.push(fileError(LAYOUT_MESSAGES.bothLayouts));
  else if (long && skill < 0) errors.push(unmapped('skill'));
  else if (long && score < 0) errors.push(unmapped('score'));
  else if (!long && !skills.length) errors.push(fileError(LAYOUT_MESSAGES.noScores));
  if (errors.length) return { errors };
  return { layout: long ? 'long' : 'wide', employeeId, date, skill, score, skills };
}

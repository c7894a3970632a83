import { z } from 'zod';
import { codeRef, recordVersion } from '../fields.ts';
import { MAX_LIMIT } from '../query.ts';
import type { ResourceDef } from './define.ts';

/** A bulk write names at most a list page of records: what a select-all can hold. */
export const BULK_MAX = MAX_LIMIT;

/** One code or a list of them, as a form body sends one or several (`codes[0]=...`). */
const codes = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .pipe(
    z
      .array(codeRef('Code'))
      .min(1, 'Choose at least one record')
      .max(BULK_MAX, `At most ${BULK_MAX} records at once`),
  );

const targetShape = {
  codes,
  /** The version each record was read at, in the order of `codes`; without it none is checked. */
  versions: z.array(recordVersion).optional(),
};

/** Refuses a record named twice, and versions that do not pair one for one with the codes. */
function checkTargets(body: { codes: string[]; versions?: (number | undefined)[] }, ctx: z.RefinementCtx) {
  if (new Set(body.codes).size !== body.codes.length) {
    ctx.addIssue({ code: 'custom', path: ['codes'], message: 'A record is named more than once' });
  }
  if (body.versions && body.versions.length !== body.codes.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['versions'],
      message: 'Versions must pair one for one with the codes',
    });
  }
}

/** `Delete{Plural}`'s body: the records and, optionally, the versions they were read at. */
export const bulkDeleteSchema = z.object(targetShape).superRefine(checkTargets);

export type BulkDeleteBody = z.output<typeof bulkDeleteSchema>;

/**
 * `Update{Plural}`'s body: the records, their versions, and the new value of one or more of the
 * definition's `bulkChange` references, each a code (the field's own message when it is empty).
 */
export function bulkChangeSchema(def: ResourceDef) {
  const values = Object.fromEntries(def.bulkChange.map((f) => [f.name, codeRef(f.label).optional()]));
  return z
    .object({ ...targetShape, ...values })
    .superRefine(checkTargets)
    .superRefine((body, ctx) => {
      const set = new Map(Object.entries(body));
      if (!def.bulkChange.some((f) => set.get(f.name) !== undefined)) {
        const names = def.bulkChange.map((f) => f.name).join(' or ');
        ctx.addIssue({ code: 'custom', path: ['_'], message: `Name a new ${names}` });
      }
    });
}

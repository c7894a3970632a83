import { z } from 'zod';
import { codeRef, recordVersion } from './fields.ts';
import { ERASED } from './personal-data.ts';
import type { ResourceDef } from './resources/define.ts';

/**
 * "Restore this version" on the audit log: an audited update's `before` applied to its record as
 * a new update, through the module's own update (docs/product.md, "Audit log").
 */
export const RESTORE_VERSION_ENDPOINT = 'RestoreVersion';

/** The audit entry to restore, and the record's version as the caller last saw it. */
export const restoreVersionSchema = z.object({
  auditCode: codeRef('Audit code'),
  version: recordVersion.pipe(z.number({ error: 'Version is required' })),
});

export const ONLY_UPDATES_RESTORE = 'Only an update can be restored';
export const ERASED_NOT_RESTORED =
  'This version held personal data that has been erased: it cannot be restored';

/**
 * Pure: whether an audited record holds a value erased since (docs/privacy.md): restoring it would
 * write the placeholder over the record.
 */
export function holdsErased(before: unknown): boolean {
  if (before === ERASED) return true;
  if (Array.isArray(before)) return before.some(holdsErased);
  return typeof before === 'object' && before !== null && Object.values(before).some(holdsErased);
}

/** What the audit entry of a restored update adds to its `after`: the entry it restored. */
export const RESTORED_FROM = 'restoredFrom';

const topKey = (name: string) => name.split('.')[0] ?? name;

/**
 * Pure: whether an update of `def`'s records can be restored from the audit log. The restored
 * update body is read from the old record through the update form's fields, so a module whose
 * form fields do not name every key of its update body cannot be: the profile, whose form is laid
 * out by hand around its picture (a picture is not kept in the audit either).
 */
export function restorable(def: ResourceDef): boolean {
  const schema = def.updateSchema;
  if (!def.endpoints.update || !def.permissions.update || !(schema instanceof z.ZodObject)) return false;
  const named = new Set([
    def.code,
    ...def.formFields.filter((f) => !f.modes || f.modes.includes('update')).map((f) => topKey(f.name)),
  ]);
  return Object.keys(schema.shape).every((key) => named.has(key));
}

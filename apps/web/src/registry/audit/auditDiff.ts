/** One field of an audited record, before and after, as the audit view lists it. */
export interface DiffRow {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {};

/** Pure: a value as one line of text; nothing as an empty string. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Pure: every top-level field of the record before and after the change, side by side, in the
 * order the record holds them (fields only the old record had come last). A field is changed when
 * the entry's `changes` name it, or, for an entry without them (a create or a delete), when the
 * two sides differ.
 */
export function auditDiff(before: unknown, after: unknown, changes: unknown): DiffRow[] {
  const [old, now, named] = [asObject(before), asObject(after), asObject(changes)];
  const fields = [...new Set([...Object.keys(now), ...Object.keys(old)])];
  const hasChanges = changes !== null && changes !== undefined;
  return fields.map((field) => {
    const [b, a] = [shown(old[field]), shown(now[field])];
    return { field, before: b, after: a, changed: hasChanges ? field in named : b !== a };
  });
}

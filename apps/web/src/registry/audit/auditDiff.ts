import type { ResourceDef } from '@wfc/contract';
import { auditFields, auditValue, fieldLabel } from './auditText';

/** One field of an audited record, before and after, as the audit view lists it. */
export interface DiffRow {
  /** Where the value sits in the record (`address.city`), the row's key. */
  path: string;
  /** The field as the module's screens label it. */
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Pure: every field of the record before and after the change, side by side, in the order the
 * record holds them (fields only the old record had come last), labelled and shown as `target`'s
 * screens show them. Only a change of a record that exists on both sides marks fields as changed:
 * those its `changes` name (at the field or under it), or, without them, those that differ. A
 * create or a delete changes every field alike, so none is singled out.
 */
export function auditDiff(
  before: unknown,
  after: unknown,
  changes: unknown,
  target?: ResourceDef,
): DiffRow[] {
  const old = new Map(auditFields(before));
  const now = new Map(auditFields(after));
  const named = isRecord(changes) ? Object.keys(changes) : undefined;
  const bothSides = isRecord(before) && isRecord(after);
  const paths = [...new Set([...now.keys(), ...old.keys()])];
  return paths.map((path) => {
    const [b, a] = [auditValue(old.get(path)), auditValue(now.get(path))];
    const changed =
      bothSides && (named ? named.some((key) => key === path || key.startsWith(`${path}.`)) : b !== a);
    return { path, field: fieldLabel(target, path), before: b, after: a, changed };
  });
}

import type { FormFieldDef } from '@wfc/contract';
import { get } from 'react-hook-form';
import { ApiError } from '../../api/client';
import type { RegistryRecord } from '../queries';

/*
 * Optimistic concurrency in the forms: an update or delete names the version it read; when the
 * record has moved on the server answers 409 with the record as it now stands (null when it was
 * deleted), and the form compares, field by field, what it was opened with, what the other person
 * saved and what the user typed.
 */

/** A write refused because the record changed (or was deleted) since it was read. */
export interface StaleConflict {
  /** The server's words: 'This gender was changed by jdoe at 2026-01-02 10:11:12 UTC since you opened it'. */
  message: string;
  /** The record as it now stands; null when it was deleted. */
  theirs: RegistryRecord | null;
}

/** The conflict a failed write reports, if it is one: a 409 carrying `data` (a record or null). */
export function staleConflictOf(err: unknown): StaleConflict | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || err.data === undefined) return undefined;
  const theirs = err.data;
  if (theirs !== null && (typeof theirs !== 'object' || Array.isArray(theirs))) return undefined;
  return { message: err.message, theirs: theirs as RegistryRecord | null };
}

/** The version a record was read at, sent back with its update or delete. */
export const versionOf = (record: RegistryRecord | null | undefined): number | undefined =>
  typeof record?.version === 'number' ? record.version : undefined;

/** A field as a conflict names it: its form name (dotted when nested) and its label. */
export interface ComparedField {
  name: string;
  label: string;
}

/** How one field stands between the version the form opened, theirs and the user's. */
export interface FieldChange extends ComparedField {
  base: string;
  theirs: string;
  mine: string;
  /** The other person changed it. */
  theirsChanged: boolean;
  /** The user changed it in the form. */
  mineChanged: boolean;
  /** Both changed it, to different values: keeping mine puts mine over theirs. */
  clash: boolean;
}

export const EMPTY_VALUE = '(empty)';

/**
 * What a form value reads as, and what makes two values the same: an option is its code, a list of
 * options its codes in any order, text its trimmed self (the server trims).
 */
export function comparable(value: unknown): { key: string; text: string } {
  if (value === null || value === undefined || value === '') return { key: '', text: EMPTY_VALUE };
  if (typeof value === 'boolean') return { key: String(value), text: value ? 'Yes' : 'No' };
  if (Array.isArray(value)) {
    const items = value.map(comparable).filter((i) => i.key !== '');
    if (items.length === 0) return { key: '', text: EMPTY_VALUE };
    return {
      key: items
        .map((i) => i.key)
        .sort()
        .join('\u0000'),
      text: items
        .map((i) => i.text)
        .sort((a, b) => a.localeCompare(b))
        .join(', '),
    };
  }
  if (typeof value === 'object') {
    if ('value' in value) {
      const { value: code, label } = value as { value?: unknown; label?: unknown };
      const key = code === null || code === undefined ? '' : String(code);
      if (!key) return { key: '', text: EMPTY_VALUE };
      return { key, text: typeof label === 'string' && label ? label : key };
    }
    // A map (a role's scopes by permission) is the same whatever order its keys came in.
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return { key: '', text: EMPTY_VALUE };
    return { key: JSON.stringify(entries), text: entries.map(([k, v]) => `${k}: ${String(v)}`).join(', ') };
  }
  const text = String(value).trim();
  return { key: text, text: text || EMPTY_VALUE };
}

/**
 * Field by field: the form's values as opened (`base`), as the other person saved them (`theirs`)
 * and as the user has them now (`mine`), each read by field name. Only fields that either side
 * changed are returned, in the order given.
 */
export function compareFields(
  fields: readonly ComparedField[],
  base: object,
  theirs: object,
  mine: object,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const b = comparable(get(base, field.name));
    const t = comparable(get(theirs, field.name));
    const m = comparable(get(mine, field.name));
    const theirsChanged = t.key !== b.key;
    const mineChanged = m.key !== b.key;
    if (!theirsChanged && !mineChanged) continue;
    changes.push({
      ...field,
      base: b.text,
      theirs: t.text,
      mine: m.text,
      theirsChanged,
      mineChanged,
      clash: theirsChanged && mineChanged && m.key !== t.key,
    });
  }
  return changes;
}

/** The fields of a definition's form a conflict compares: not passwords (never read back) nor JSON. */
export const comparedFieldsOf = (fields: readonly FormFieldDef[]): ComparedField[] =>
  fields
    .filter((f) => f.kind !== 'password' && f.kind !== 'json')
    .map((f) => ({ name: f.name, label: f.label }));

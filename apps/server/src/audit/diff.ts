/** Keys that never enter an audit record, at any depth. */
const SECRET_KEYS = new Set(['password', 'passwordHash', 'password_hash', 'idHash', 'token']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A JSON-safe copy without secrets: Dates become ISO strings, undefined is dropped. */
export function scrub(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEYS.has(k) || v === undefined) continue;
      out[k] = scrub(v);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

function flatten(value: Json, prefix: string, out: Map<string, Json>) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) out.set(prefix, value);
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.set(prefix, value);
}

const IGNORED = new Set(['updatedAt', 'createdAt', 'version']);

/**
 * Field-by-field changes between two records: `{ "role.roleName": { old, new } }`. Arrays are
 * compared whole. Timestamps and the version are left out: they change on every write and say
 * nothing the before and after do not.
 */
export function diff(before: unknown, after: unknown): Record<string, { old: Json; new: Json }> {
  const a = new Map<string, Json>();
  const b = new Map<string, Json>();
  flatten(scrub(before), '', a);
  flatten(scrub(after), '', b);
  const out: Record<string, { old: Json; new: Json }> = {};
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (IGNORED.has(key) || key === '') continue;
    const o = a.get(key) ?? null;
    const n = b.get(key) ?? null;
    if (JSON.stringify(o) !== JSON.stringify(n)) out[key] = { old: o, new: n };
  }
  return out;
}

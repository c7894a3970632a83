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

/** Pure: whether two JSON values are the same; only arrays and objects are written out to tell. */
const same = (x: Json, y: Json) =>
  x === y || (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y));

/**
 * Field-by-field changes between two records: `{ "role.roleName": { old, new } }`. Arrays are
 * compared whole. Timestamps and the version are left out: they change on every write and say
 * nothing the before and after do not. Both are `scrub`bed already: an audit entry scrubs its
 * before and after once.
 */
export function diff(before: Json, after: Json): Record<string, { old: Json; new: Json }> {
  const a = new Map<string, Json>();
  const b = new Map<string, Json>();
  flatten(before, '', a);
  flatten(after, '', b);
  const out: Record<string, { old: Json; new: Json }> = {};
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (IGNORED.has(key) || key === '') continue;
    const o = a.get(key) ?? null;
    const n = b.get(key) ?? null;
    if (!same(o, n)) out[key] = { old: o, new: n };
  }
  return out;
}

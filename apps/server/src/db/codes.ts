import { randomFillSync } from 'node:crypto';

export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes drawn from the system's generator a few thousand at a time: a bulk write makes a
 * code per record and per audit entry, and one call per code was a measurable share of it.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `PREFIX-` plus 16 Crockford base-32 characters (80 random bits): URL-safe and unguessable. */
export function newCode(prefix: string): string {
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = prefix;
  for (let i = used; i < used + 16; i++) out += CODE_ALPHABET[(pool[i] as number) & 31];
  used += 16;
  return out;
}

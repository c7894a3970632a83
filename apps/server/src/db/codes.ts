import { randomBytes } from 'node:crypto';

export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `PREFIX-` plus 16 Crockford base-32 characters (80 random bits): URL-safe and unguessable. */
export function newCode(prefix: string): string {
  const bytes = randomBytes(16);
  let out = prefix;
  for (let i = 0; i < 16; i++) out += CODE_ALPHABET[bytes[i] & 31];
  return out;
}

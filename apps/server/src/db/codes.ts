import { randomBytes } from 'node:crypto';

export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `PREFIX-` plus 16 Crockford base-32 characters (80 random bits): URL-safe and unguessable. */
export function newCode(prefix: string): string {
  let out = prefix;
  for (const byte of randomBytes(16)) out += CODE_ALPHABET[byte & 31];
  return out;
}

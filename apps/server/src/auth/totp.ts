import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@wfc/contract';
import { Secret, TOTP } from 'otpauth';
import { CODE_ALPHABET } from '../db/codes.ts';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds. */
const PERIOD_S = 30;
export const TOTP_ISSUER = 'Workforce Console';

const totpFor = (secret: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** 160 random bits, base-32 (RFC 4226's recommended length). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export const otpauthUrl = (secret: string, username: string) => totpFor(secret, username).toString();

/** The time step a moment falls in. */
export const timeStep = (nowMs: number) => Math.floor(nowMs / 1000 / PERIOD_S);

/** Pure: the code an app shows at `nowMs` (tests and the browser test's "app"). */
export const totpCode = (secret: string, nowMs: number) => totpFor(secret).generate({ timestamp: nowMs });

/**
 * Pure: the time step whose code `code` is, within one step either side of `nowMs` (a clock a
 * little off, a code typed as it changes), or null. The caller accepts a step once only.
 */
export function matchTotp(secret: string, code: string, nowMs: number): number | null {
  const delta = totpFor(secret).validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? null : timeStep(nowMs) + delta;
}

/** Ten codes of 10 Crockford base-32 characters (50 bits each), shown as `XXXXX-XXXXX`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (const byte of randomBytes(10)) code += CODE_ALPHABET[byte & 31];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * What is stored of a recovery code: its SHA-256 as normalised (no dash, upper case). 50 random
 * bits behind sign-in throttling need no slow hash.
 */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');

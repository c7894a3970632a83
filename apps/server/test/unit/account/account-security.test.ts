import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveKey, open, seal } from '../../../src/auth/secret-box.ts';
import {
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  timeStep,
  totpCode,
} from '../../../src/auth/totp.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../../src/config/common-passwords.ts';
import { loadConfig } from '../../../src/config/config.ts';

describe('TOTP (RFC 6238: SHA-1, 6 digits, 30 s)', () => {
  // RFC 6238 appendix B's SHA-1 secret ("12345678901234567890") in base-32, and its 8-digit
  // values' last 6 digits.
  const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  it.each([
    [59_000, '287082'],
    [1_111_111_109_000, '081804'],
    [1_234_567_890_000, '005924'],
    [2_000_000_000_000, '279037'],
  ])('at %i ms the code is %s', (ms, code) => {
    expect(totpCode(RFC_SECRET, ms)).toBe(code);
    expect(matchTotp(RFC_SECRET, code, ms)).toBe(timeStep(ms));
  });

  it('accepts one step either side and names the step of the code, not of the clock', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_015_000;
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now)).toBe(timeStep(now) - 1);
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now)).toBe(timeStep(now) + 1);
    expect(matchTotp(secret, totpCode(secret, now - 60_000), now)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 60_000), now)).toBeNull();
  });

  it('makes 160-bit base-32 secrets and otpauth addresses apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl(secret, 'ana.lee'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Workforce Console:ana.lee');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      issuer: 'Workforce Console',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

describe('recovery codes', () => {
  it('are ten distinct XXXXX-XXXXX codes, hashed ignoring case and the dash', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const [code] = codes as [string];
    expect(hashRecoveryCode(code.toLowerCase().replace('-', ' '))).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toContain(code.replace('-', ''));
  });
});

describe('the secret box', () => {
  const key = deriveKey('a-secret-key-of-at-least-32-characters!');
  it('opens what it sealed, with a fresh nonce each time (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), (plain) => {
        const a = seal(key, plain);
        expect(open(key, a)).toBe(plain);
        expect(seal(key, plain)).not.toBe(a);
      }),
    );
  });
  it('refuses another key and any altered text', () => {
    const sealed = seal(key, 'JBSWY3DPEHPK3PXP');
    expect(() => open(deriveKey('another-secret-key-of-32-characters-!!'), sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = `A${parts[3]!.slice(1)}` === parts[3] ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    expect(() => open(key, parts.join('.'))).toThrow();
    expect(() => open(key, 'not sealed')).toThrow('Not a sealed secret');
  });
});

describe('common passwords (offline list)', () => {
  it('knows the common ones whatever their case, and not a passphrase of one’s own', () => {
    for (const p of ['password1234', 'Password1234', 'qwerty123456', '1qaz2wsx3edc']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    expect(isCommonPassword('violet-harbour-lantern-7')).toBe(false);
    expect(COMMON_PASSWORD_MESSAGE).toBe('This password is too common');
  });
});

describe('the configuration', () => {
  it('refuses a common ADMIN_PASSWORD, and a provider without its client credentials', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'Password1234' })).toThrow(
      'ADMIN_PASSWORD: This password is too common',
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      'OIDC_ISSUER: needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    );
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(
      'SECRET_KEY: must be at least 32 characters long',
    );
    const sso = loadConfig({
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
    });
    expect(sso).toMatchObject({
      OIDC_USERNAME_CLAIM: 'preferred_username',
      OIDC_BUTTON_LABEL: 'single sign-on',
    });
  });
});

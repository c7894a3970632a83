import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  foldUsername,
  nameLinkAllowed,
  providerCheckedSecondFactor,
  providerUsername,
} from '../../../src/account/sso-rules.ts';

describe('providerUsername', () => {
  it.each([
    ['admin', 'admin'],
    ['ADMIN', 'admin'],
    ['Jane.Doe-2', 'jane.doe-2'],
    // Full-width letters are the letters they stand for.
    ['\uff41\uff44\uff4d\uff49\uff4e', 'admin'],
  ])('%s is the username %s', (name, expected) => {
    expect(providerUsername(name)).toBe(expected);
  });

  it.each([
    ['Admin ', 'a trailing space'],
    [' admin', 'a leading space'],
    ['adm\u0130n', 'a dotted capital I, which lower() would turn into i'],
    ['admın', 'a dotless i'],
    ['ad', 'too short'],
    ['a'.repeat(51), 'too long'],
    ['admin@example.com', 'an @'],
    ['', 'empty'],
  ])('%j matches nobody (%s)', (name) => {
    expect(providerUsername(name)).toBeUndefined();
  });

  it('folds only ASCII letters, and every name it accepts is ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (name) => {
        const folded = providerUsername(name);
        if (folded === undefined) return;
        expect(folded).toMatch(/^[a-z0-9._-]{3,50}$/);
        expect(folded).toBe(foldUsername(name.normalize('NFKC')));
      }),
    );
  });
});

describe('nameLinkAllowed', () => {
  it('by role: not for a role holding an access-management permission', () => {
    expect(nameLinkAllowed('role', ['VIEW_GENDERS', 'CREATE_EMPLOYEE'])).toBe(true);
    expect(nameLinkAllowed('role', [])).toBe(true);
    for (const p of [
      'CREATE_ROLE',
      'UPDATE_ROLE',
      'DELETE_ROLE',
      'CREATE_USER',
      'UPDATE_USER',
      'DELETE_USER',
    ]) {
      expect(nameLinkAllowed('role', ['VIEW_GENDERS', p]), p).toBe(false);
    }
  });

  it('allowed and refused say so whatever the role', () => {
    expect(nameLinkAllowed('allowed', ['UPDATE_USER'])).toBe(true);
    expect(nameLinkAllowed('refused', ['VIEW_GENDERS'])).toBe(false);
  });
});

describe('providerCheckedSecondFactor', () => {
  const policy = { amr: ['mfa', 'otp', 'hwk', 'swk'] };

  it('an amr value of the list', () => {
    expect(providerCheckedSecondFactor({ amr: ['pwd', 'otp'] }, policy)).toBe(true);
    expect(providerCheckedSecondFactor({ amr: ['hwk'] }, policy)).toBe(true);
  });

  it('nothing else: other values, no amr, a string instead of a list, an empty list of methods', () => {
    expect(providerCheckedSecondFactor({ amr: ['pwd'] }, policy)).toBe(false);
    expect(providerCheckedSecondFactor({}, policy)).toBe(false);
    expect(providerCheckedSecondFactor({ amr: 'mfa' }, policy)).toBe(false);
    expect(providerCheckedSecondFactor({ amr: ['mfa'] }, { amr: [] })).toBe(false);
  });

  it('acr only when configured, and only its exact value', () => {
    expect(providerCheckedSecondFactor({ acr: 'urn:mfa' }, policy)).toBe(false);
    expect(providerCheckedSecondFactor({ acr: 'urn:mfa' }, { ...policy, acr: 'urn:mfa' })).toBe(true);
    expect(providerCheckedSecondFactor({ acr: 'urn:mfa:weak' }, { ...policy, acr: 'urn:mfa' })).toBe(false);
  });
});

import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  heldScope,
  holdsEverything,
  mayGive,
  scopeCondition,
  widestScope,
} from '../../../src/auth/scopes.ts';
import { scopesOf } from '../../../src/auth/sessions.ts';

const caller = {
  userCode: 'USER-1',
  permissions: new Set(['VIEW_EMPLOYEES', 'UPDATE_EMPLOYEE', 'VIEW_GENDERS']),
  scopes: new Map([
    ['VIEW_EMPLOYEES', 'own'],
    ['UPDATE_EMPLOYEE', 'team'],
  ] as const),
};

describe('a caller’s scopes', () => {
  it('reads NAME:scope pairs, leaving out anything else', () => {
    expect(scopesOf(['VIEW_EMPLOYEES:team', 'VIEW_PROFILES:own', 'BROKEN', 'X:wide'])).toEqual(
      new Map([
        ['VIEW_EMPLOYEES', 'team'],
        ['VIEW_PROFILES', 'own'],
      ]),
    );
  });

  it('holds a permission at its scope, all when unscoped, and not at all when missing', () => {
    expect(heldScope(caller, 'VIEW_EMPLOYEES')).toBe('own');
    expect(heldScope(caller, 'VIEW_GENDERS')).toBe('all');
    expect(heldScope(caller, 'DELETE_EMPLOYEE')).toBeNull();
  });

  it('reaches as far as the widest of the permissions it holds among those asked', () => {
    expect(widestScope(caller, ['VIEW_EMPLOYEES', 'UPDATE_EMPLOYEE'])).toBe('team');
    expect(widestScope(caller, ['VIEW_EMPLOYEES', 'VIEW_GENDERS'])).toBe('all');
    expect(widestScope(caller, ['DELETE_EMPLOYEE'])).toBeNull();
  });

  it('puts no condition on all records, and nothing within reach without the permission', () => {
    const own = sql`own`;
    const team = sql`team`;
    const relation = { own: () => own, team: () => team, reads: [] };
    expect(scopeCondition(relation, 'all', 'USER-1')).toBeUndefined();
    expect(scopeCondition(relation, 'own', 'USER-1')).toBe(own);
    expect(scopeCondition(relation, 'team', 'USER-1')).toBe(team);
    expect(scopeCondition(relation, null, 'USER-1')).not.toBe(own);
    expect(scopeCondition(undefined, 'team', 'USER-1')).not.toBe(team);
  });

  it('gives only as far as it holds (delegation), and holds everything only with every permission for all', () => {
    expect(mayGive(caller, 'UPDATE_EMPLOYEE', 'team')).toBe(true);
    expect(mayGive(caller, 'UPDATE_EMPLOYEE', 'own')).toBe(true);
    expect(mayGive(caller, 'UPDATE_EMPLOYEE', 'all')).toBe(false);
    expect(mayGive(caller, 'VIEW_GENDERS', 'all')).toBe(true);
    expect(mayGive(caller, 'DELETE_EMPLOYEE', 'own')).toBe(false);
    const everything = new Set<string>(ALL_PERMISSION_NAMES);
    expect(holdsEverything({ userCode: 'U', permissions: everything, scopes: new Map() })).toBe(true);
    expect(
      holdsEverything({
        userCode: 'U',
        permissions: everything,
        scopes: new Map([['VIEW_EMPLOYEES', 'team']]),
      }),
    ).toBe(false);
    expect(holdsEverything(caller)).toBe(false);
  });
});

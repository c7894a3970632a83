import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSION_NAMES,
  allowedScopes,
  narrowerScope,
  PERMISSION_SCOPES,
  SCOPABLE_PERMISSIONS,
  scopeCovers,
  scopeOf,
  scopeRefusal,
} from '../src/index.ts';

const user = (held: Record<string, 'all' | 'team' | 'own' | undefined>) => ({
  role: {
    rolePermissions: Object.keys(held).map((name, i) => ({
      permissionCode: `PERM-${i}`,
      permissionName: name,
    })),
    permissionScopes: Object.fromEntries(
      Object.values(held).flatMap((scope, i) => (scope ? [[`PERM-${i}`, scope]] : [])),
    ),
  },
});

describe('permission scopes', () => {
  it('orders all > team > own for delegation', () => {
    expect(scopeCovers('all', 'team')).toBe(true);
    expect(scopeCovers('team', 'own')).toBe(true);
    expect(scopeCovers('team', 'team')).toBe(true);
    expect(scopeCovers('team', 'all')).toBe(false);
    expect(scopeCovers('own', 'team')).toBe(false);
    expect(narrowerScope('all', 'own')).toBe('own');
    expect(narrowerScope('team', 'all')).toBe('team');
  });

  it('declares scopes only for permissions of the catalogue, each offering all', () => {
    for (const [name, scopes] of Object.entries(SCOPABLE_PERMISSIONS)) {
      expect(ALL_PERMISSION_NAMES).toContain(name);
      expect(scopes).toContain('all');
      for (const s of scopes ?? []) expect(PERMISSION_SCOPES).toContain(s);
    }
    expect(allowedScopes('VIEW_GENDERS')).toEqual(['all']);
    expect(allowedScopes('view employees')).toEqual(['all', 'team', 'own']);
    expect(allowedScopes('CREATE_EMPLOYEE')).not.toContain('own');
    expect(allowedScopes('UPDATE_PERFORMANCE')).not.toContain('own');
  });

  it('reads the scope a user holds a permission at, all when the role names none, null when not held', () => {
    const u = user({ VIEW_EMPLOYEES: 'team', VIEW_PROFILES: 'own', VIEW_GENDERS: undefined });
    expect(scopeOf(u, 'VIEW_EMPLOYEES')).toBe('team');
    expect(scopeOf(u, 'view profiles')).toBe('own');
    expect(scopeOf(u, 'VIEW_GENDERS')).toBe('all');
    expect(scopeOf(u, 'VIEW_PERFORMANCES')).toBeNull();
    expect(scopeOf(null, 'VIEW_EMPLOYEES')).toBeNull();
  });

  it('refuses a scope on a permission the role does not hold, or one the permission does not allow', () => {
    expect(scopeRefusal('VIEW_EMPLOYEES', 'own')).toBeUndefined();
    expect(scopeRefusal('VIEW_GENDERS', 'all')).toBeUndefined();
    expect(scopeRefusal(undefined, 'all')).toBe('A scope is given for a permission the role does not hold');
    expect(scopeRefusal('CREATE_EMPLOYEE', 'own')).toBe(
      "CREATE_EMPLOYEE cannot be held for 'own' records (allowed: all, team)",
    );
    expect(scopeRefusal('VIEW_GENDERS', 'team')).toBe(
      "VIEW_GENDERS cannot be held for 'team' records (allowed: all)",
    );
  });
});

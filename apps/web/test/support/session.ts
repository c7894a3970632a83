import type { PermissionScope, SessionTiming, SessionUser } from '@wfc/contract';

const MINUTE = 60_000;

/** A signed-in user holding `permissions`, each for all records unless `scopes` names it. */
export function sessionUser(
  permissions: string[],
  username = 'tester',
  scopes: Readonly<Record<string, PermissionScope>> = {},
): SessionUser {
  return {
    userCode: `USER-${username.toUpperCase()}`,
    username,
    email: `${username}@example.com`,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    mfaEnabled: false,
    employee: null,
    role: {
      roleCode: 'ROLE-TEST',
      roleName: 'Tester',
      roleDescription: null,
      requireMfa: false,
      externalId: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      rolePermissions: permissions.map((p, i) => ({ permissionCode: `PERM-${i}`, permissionName: p })),
      permissionScopes: Object.fromEntries(permissions.map((p, i) => [`PERM-${i}`, scopes[p] ?? 'all'])),
    },
  };
}

/** The timing a sign-in answers with under the default policy: 30 minutes idle, touched once a minute. */
export const sessionTiming = (overrides: Partial<SessionTiming> = {}): SessionTiming => ({
  idleMs: 30 * MINUTE,
  touchIntervalMs: MINUTE,
  idleExpiresInMs: 30 * MINUTE,
  absoluteExpiresInMs: 12 * 60 * MINUTE,
  ...overrides,
});

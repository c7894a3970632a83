import type { SessionUser } from '@wfc/contract';

/** A signed-in user whose role holds exactly these permissions. */
export function sessionUser(permissions: string[], username = 'tester'): SessionUser {
  return {
    userCode: `USER-${username.toUpperCase()}`,
    username,
    email: `${username}@example.com`,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    role: {
      roleCode: 'ROLE-TEST',
      roleName: 'Tester',
      roleDescription: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      rolePermissions: permissions.map((p, i) => ({ permissionCode: `PERM-${i}`, permissionName: p })),
    },
  };
}

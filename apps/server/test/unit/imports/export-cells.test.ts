import { RESOURCE_BY_KEY } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { exportCell, referenceListKeys } from '../../../src/resources/export.ts';

describe('an exported cell', () => {
  it('writes a list of references as the names an import reads back, joined by "; "', () => {
    const keys = referenceListKeys(RESOURCE_BY_KEY.role);
    expect(keys.get('rolePermissions')).toBe('permissionName');
    const role = {
      roleName: 'Clerk',
      rolePermissions: [
        { permissionCode: 'PERM-1', permissionName: 'VIEW_EMPLOYEE' },
        { permissionCode: 'PERM-2', permissionName: 'CREATE_EMPLOYEE' },
      ],
    };
    expect(exportCell(role, 'rolePermissions', keys.get('rolePermissions'))).toBe(
      'VIEW_EMPLOYEE; CREATE_EMPLOYEE',
    );
    expect(exportCell({ rolePermissions: [] }, 'rolePermissions', 'permissionName')).toBe('');
    // Without a key an object is still JSON, as before.
    expect(exportCell(role, 'rolePermissions')).toBe(JSON.stringify(role.rolePermissions));
  });

  it('keeps the other cells as they were: times in ISO 8601, nested paths, nothing as empty', () => {
    const at = new Date(Date.UTC(2024, 2, 1, 8, 30));
    expect(exportCell({ createdAt: at }, 'createdAt')).toBe('2024-03-01T08:30:00.000Z');
    expect(exportCell({ address: { city: { name: 'Oslo' } } }, 'address.city.name')).toBe('Oslo');
    expect(exportCell({ a: null }, 'a')).toBe('');
    expect(exportCell({ n: 3, b: false }, 'n')).toBe('3');
    expect(exportCell({ n: 3, b: false }, 'b')).toBe('false');
  });

  it('finds a list column in every module whose form picks several references', () => {
    expect([...referenceListKeys(RESOURCE_BY_KEY.department)]).toEqual([['managers', 'name']]);
    expect([...referenceListKeys(RESOURCE_BY_KEY.gender)]).toEqual([]);
  });
});

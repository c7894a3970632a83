import { ALL_PERMISSION_NAMES, genderResource, roleResource } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import {
  groupPermissions,
  heldPermissionNames,
  OTHER_MODULE,
  permissionsField,
} from '../../src/registry/record/permissionGroups';

describe('a role’s permissions, grouped by module', () => {
  it('groups in the catalogue’s order, whatever order they were given in', () => {
    expect(
      groupPermissions(['DELETE_GENDER', 'VIEW_AUDITS', 'VIEW_ROLES', 'CREATE_GENDER', 'UPDATE_ROLE']),
    ).toEqual([
      { module: 'Roles', names: ['VIEW_ROLES', 'UPDATE_ROLE'] },
      { module: 'Genders', names: ['CREATE_GENDER', 'DELETE_GENDER'] },
      { module: 'Audit Logs', names: ['VIEW_AUDITS'] },
    ]);
  });

  it('keeps every one of the whole catalogue, each once', () => {
    const groups = groupPermissions([...ALL_PERMISSION_NAMES, 'VIEW_ROLES']);
    expect(groups.flatMap((g) => g.names)).toEqual([...ALL_PERMISSION_NAMES]);
    expect(groups.map((g) => g.module)).toEqual([
      'Roles',
      'Users',
      'Genders',
      'Countries',
      'States',
      'Cities',
      'Profiles',
      'Departments',
      'Skills',
      'Employees',
      'Permissions',
      'Audit Logs',
      'Performance Snapshot',
      'Personal data',
      'Integrations',
    ]);
    expect(groups.at(-3)?.names).toEqual(['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE']);
    expect(groups.at(-2)?.names).toEqual([
      'VIEW_PERSONAL_DATA',
      'EXPORT_PERSONAL_DATA',
      'ERASE_PERSONAL_DATA',
    ]);
    expect(groups.at(-1)?.names).toEqual(['MANAGE_INTEGRATIONS']);
  });

  it('puts a name of no module last, under Other', () => {
    expect(groupPermissions(['EXPORT_EVERYTHING', 'VIEW_ROLES']).map((g) => g.module)).toEqual([
      'Roles',
      OTHER_MODULE,
    ]);
  });

  it('has no groups for a role without permissions', () => {
    expect(groupPermissions([])).toEqual([]);
  });

  it('finds the permissions a record holds through its definition', () => {
    const field = permissionsField(roleResource);
    expect(field?.name).toBe('rolePermissions');
    expect(permissionsField(genderResource)).toBeUndefined();
    const role = {
      rolePermissions: [
        { permissionCode: 'PERM-1', permissionName: 'VIEW_ROLES' },
        { permissionCode: 'PERM-2', permissionName: 'VIEW_USERS' },
      ],
    };
    expect(field && heldPermissionNames(field, role)).toEqual(['VIEW_ROLES', 'VIEW_USERS']);
    expect(field && heldPermissionNames(field, { rolePermissions: [] })).toEqual([]);
  });
});

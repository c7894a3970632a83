import { employeeResource, genderResource, userResource } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { formatCell } from '../../src/registry/format';
import { fieldsFor } from '../../src/registry/record/formValues';
import { toOption } from '../../src/registry/select/options';

const user = (active: boolean) => ({
  userCode: 'USER-1',
  username: 'jdoe',
  email: 'jdoe@example.com',
  role: { roleCode: 'ROLE-1', roleName: 'Viewer' },
  active,
  externalId: null,
  createdAt: '2026-11-20T09:12:00.000Z',
  updatedAt: '2026-11-20T09:12:00.000Z',
  version: 1,
});

describe('disabled users', () => {
  it('are said to be so in the users list', () => {
    const status = userResource.columns.find((c) => c.path === 'active');
    if (!status) throw new Error('the users list has no status column');
    expect(status.label).toBe('Status');
    expect(formatCell(user(true), status)).toBe('Active');
    expect(formatCell(user(false), status)).toBe('Disabled');
    // A switch column without labels of its own says Yes and No.
    expect(formatCell({ on: true }, { path: 'on', label: 'On', format: 'switch' })).toBe('Yes');
  });

  it('are named as disabled in selectors, which the definition declares', () => {
    expect(toOption(userResource, user(true))).toEqual({ value: 'USER-1', label: 'jdoe' });
    expect(toOption(userResource, user(false))).toEqual({ value: 'USER-1', label: 'jdoe (disabled)' });
    // An employee's user field offers users: the same options.
    expect(employeeResource.formFields.some((f) => f.source === 'user')).toBe(true);
    // A module without the flag is never marked, whatever its records hold.
    expect(toOption(genderResource, { genderCode: 'G-1', genderName: 'Other', active: false })).toEqual({
      value: 'G-1',
      label: 'Other',
    });
  });

  it('are switched on the edit form and the view only: a new user is active', () => {
    const names = (mode: 'create' | 'update' | 'view') => fieldsFor(userResource, mode).map((f) => f.name);
    expect(names('update')).toContain('active');
    expect(names('view')).toContain('active');
    expect(names('create')).not.toContain('active');
  });
});

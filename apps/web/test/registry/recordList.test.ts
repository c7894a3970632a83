import { RESOURCE_BY_KEY } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { cardLayout, selectLabel, sortChoices } from '../../src/registry/list/recordList';

const labels = (columns: readonly { label: string }[]) => columns.map((c) => c.label);

describe('phone card layout', () => {
  it('titles a card with the display name and shows the next three columns in table order', () => {
    const users = cardLayout(RESOURCE_BY_KEY.user);
    expect(users.title?.label).toBe('Username');
    expect(labels(users.fields)).toEqual(['Email', 'Role', 'Status']);
  });

  it('keeps the columns before the name: an employee shows its Id first', () => {
    const employees = cardLayout(RESOURCE_BY_KEY.employee);
    expect(employees.title?.path).toBe('name');
    expect(labels(employees.fields)).toEqual(['Employee Id', 'Department', 'Join Date']);
  });

  it('shows fewer fields when the table has fewer columns', () => {
    const genders = cardLayout(RESOURCE_BY_KEY.gender);
    expect(genders.title?.label).toBe('Gender Name');
    expect(labels(genders.fields)).toEqual(['Created At', 'Updated At']);
  });

  it('falls back to the first column when no column shows the display name', () => {
    const layout = cardLayout({ ...RESOURCE_BY_KEY.country, nameField: 'nickname' }, 2);
    expect(layout.title?.label).toBe('Name');
    expect(labels(layout.fields)).toEqual(['ISO2', 'ISO3']);
  });
});

describe('phone sort choices', () => {
  it('offers creation order, then the sortable columns only', () => {
    expect(sortChoices(RESOURCE_BY_KEY.role)).toEqual([
      { sortField: '_id', label: 'Date added' },
      { sortField: 'roleName', label: 'Name' },
      { sortField: 'roleDescription', label: 'Description' },
      { sortField: 'createdAt', label: 'Created At' },
      { sortField: 'updatedAt', label: 'Updated At' },
    ]);
  });
});

describe('row selection label', () => {
  it('names the record, else its code', () => {
    const def = RESOURCE_BY_KEY.gender;
    expect(selectLabel(def, { genderCode: 'GENDER-1', genderName: 'Female' })).toBe('Select Female');
    expect(selectLabel(def, { genderCode: 'GENDER-2', genderName: '' })).toBe('Select GENDER-2');
  });
});

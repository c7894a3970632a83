import { describe, expect, it } from 'vitest';
import { type AuditedChange, restoreTarget } from '../../../src/resources/restore.ts';

/* Which audit entries "Restore this version" can apply: an update of a restorable module. */

const modules = new Map([['genders', 'the genders module']]);
const update: AuditedChange = {
  action: 'UPDATE',
  collection: 'genders',
  recordCode: 'GENDER-1',
  before: { genderCode: 'GENDER-1', genderName: 'Old' },
};

describe('restoreTarget', () => {
  it("is the entry's module, record and old values for an update", () => {
    expect(restoreTarget(update, modules)).toEqual({
      module: 'the genders module',
      code: 'GENDER-1',
      before: { genderCode: 'GENDER-1', genderName: 'Old' },
    });
  });

  it.each([
    ['a create', { action: 'CREATE', before: null }],
    ['a delete', { action: 'DELETE' }],
    ['a module that cannot be restored', { collection: 'profiles' }],
    ['the performance grid', { collection: 'performances' }],
    ['an entry about no record', { recordCode: null }],
    ['an update that kept no old values', { before: null }],
    ['old values that are no record', { before: ['Old'] }],
  ])('is nothing for %s', (_what, change: Partial<AuditedChange>) => {
    expect(restoreTarget({ ...update, ...change }, modules)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource, RESOURCES } from '../src/resources/index.ts';
import { holdsErased, restorable, restoreVersionSchema } from '../src/restore.ts';

describe('restorable', () => {
  it('is every module whose update form names its whole update body', () => {
    expect(RESOURCES.filter(restorable).map((r) => r.key)).toEqual([
      'role',
      'user',
      'gender',
      'country',
      'state',
      'city',
      'department',
      'skill',
      'employee',
    ]);
  });

  it('leaves out a module without an update, and one whose form leaves a body key out', () => {
    const recordSchema = z.strictObject({ genderCode: z.string(), genderName: z.string() });
    const base = {
      key: 'gender',
      label: 'Gender',
      plural: 'Genders',
      nameField: 'genderName',
      recordSchema,
    } as const;
    const readOnly = defineResource({ ...base, actions: [], columns: [], formFields: [] });
    expect(restorable(readOnly)).toBe(false);
    const updateSchema = z.object({ genderCode: z.string(), genderName: z.string(), note: z.string() });
    const partial = defineResource({
      ...base,
      updateSchema,
      columns: [],
      formFields: [{ name: 'genderName', label: 'Name', kind: 'text' }],
    });
    expect(restorable(partial)).toBe(false);
    const whole = defineResource({
      ...base,
      updateSchema,
      columns: [],
      formFields: [
        { name: 'genderName', label: 'Name', kind: 'text' },
        { name: 'note', label: 'Note', kind: 'text', modes: ['update'] },
      ],
    });
    expect(restorable(whole)).toBe(true);
  });
});

describe('restoreVersionSchema', () => {
  it('takes a form-encoded version and insists on one', () => {
    expect(restoreVersionSchema.parse({ auditCode: 'AUDIT-1', version: '3' })).toEqual({
      auditCode: 'AUDIT-1',
      version: 3,
    });
    const missing = restoreVersionSchema.safeParse({ auditCode: 'AUDIT-1' });
    expect(missing.error?.issues.map((i) => i.message)).toEqual(['Version is required']);
    const zero = restoreVersionSchema.safeParse({ auditCode: 'AUDIT-1', version: '0' });
    expect(zero.error?.issues.map((i) => i.message)).toEqual([
      'Version must be a whole number of at least 1',
    ]);
  });
});

describe('holdsErased', () => {
  it('finds the erasure placeholder at any depth, and nothing else', () => {
    expect(holdsErased({ name: '[erased]' })).toBe(true);
    expect(holdsErased({ department: { managers: [{ name: '[erased]' }] } })).toBe(true);
    expect(holdsErased({ name: 'Ada', note: 'was [erased] once', n: 1, none: null })).toBe(false);
    expect(holdsErased(null)).toBe(false);
  });
});

import { defineResource, type RegistryRecordOf, TIMESTAMP_COLUMNS } from '@wfc/contract';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { EXTENSIONS } from '../../src/registry/extensions';
import type { ResourceExtensions } from '../../src/registry/resourceExtension';

/*
 * Type-level: a definition names only fields its schemas have, and an extension only a module's
 * key. The type checker (`npm run typecheck`, which covers the tests) fails on an
 * `@ts-expect-error` below that no longer finds its error, i.e. when a misspelt name compiles.
 * The definitions are written inside functions that never run, so nothing is registered.
 */

const record = z.strictObject({
  genderCode: z.string(),
  genderName: z.string(),
  tags: z.array(z.strictObject({ tagCode: z.string(), label: z.string() })),
  notes: z.record(z.string(), z.string()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const body = z.object({ genderName: z.string(), tagCodes: z.array(z.string()) });

const spelt = () =>
  defineResource({
    key: 'gender',
    label: 'Typed Gender',
    plural: 'Genders',
    nameField: 'genderName',
    recordSchema: record,
    createSchema: body,
    columns: [
      { path: 'genderName', label: 'Name', sortable: true },
      { path: 'tags', label: 'Tags', format: 'count' },
      ...TIMESTAMP_COLUMNS,
    ],
    moreSortFields: ['tags[].label'],
    formFields: [
      { name: 'genderName', label: 'Name', kind: 'text' },
      {
        name: 'tagCodes',
        label: 'Tags',
        kind: 'multiselect',
        valuePath: 'tags[].tagCode',
        labelPath: 'tags[].label',
      },
    ],
    filters: [{ param: 'name', label: 'Name', path: 'genderName', match: 'contains' }],
    exportColumns: [{ path: 'notes', label: 'Notes' }],
  });

const misspelt = () =>
  defineResource({
    key: 'gender',
    label: 'Misspelt Gender',
    plural: 'Genders',
    // @ts-expect-error tags is no text: it cannot name a record
    nameField: 'tags',
    recordSchema: record,
    createSchema: body,
    // @ts-expect-error the record has genderName, not gendername
    columns: [{ path: 'gendername', label: 'Name' }],
    // @ts-expect-error a tag has tagCode, not code
    moreSortFields: ['tags[].code'],
    // @ts-expect-error neither the record nor the body has a field name
    formFields: [{ name: 'name', label: 'Name', kind: 'text' }],
    // @ts-expect-error the record has no field gender
    filters: [{ param: 'name', label: 'Name', path: 'gender.name', match: 'contains' }],
    // @ts-expect-error notes is a free-form map: a path ends at it
    exportColumns: [{ path: 'notes.first', label: 'Notes' }],
  });

describe('resource definitions', () => {
  it('name only the fields their schemas have', () => {
    expectTypeOf(spelt).returns.toHaveProperty('columns');
    expectTypeOf(misspelt).returns.toHaveProperty('columns');
  });

  it('give each module its record type', () => {
    expectTypeOf<RegistryRecordOf<'profile'>['address']['postalCode']>().toEqualTypeOf<string | null>();
    expectTypeOf<RegistryRecordOf<'role'>['rolePermissions']>().toBeArray();
  });

  it('have extensions only for modules', () => {
    expectTypeOf(EXTENSIONS).toExtend<ResourceExtensions>();
    // @ts-expect-error no module is called employees
    const stray: ResourceExtensions = { employees: {} };
    expectTypeOf(stray).toExtend<ResourceExtensions>();
  });
});

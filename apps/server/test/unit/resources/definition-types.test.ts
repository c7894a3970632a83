import { employeeResource, genderResource } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { employees, genders } from '../../../src/db/schema/index.ts';
import { defineServerResource } from '../../../src/resources/server-resource.ts';

/*
 * The paths a server definition names are typed by its contract definition's schemas: the type
 * checker (`npm run typecheck`, which covers the tests) fails here if a misspelt one compiles.
 */

describe('a server definition', () => {
  it('names search paths of its record and unique fields of its bodies', () => {
    const spelt = defineServerResource({
      def: employeeResource,
      table: employees,
      search: ['name', 'department.name', 'user.username'],
      unique: [{ constraint: 'employees_user_unique', field: 'userCode', message: 'Taken' }],
    });
    expect(spelt.search).toEqual(['name', 'department.name', 'user.username']);

    const misspelt = () =>
      defineServerResource({
        def: genderResource,
        table: genders,
        // @ts-expect-error the record has genderName, not gendername
        search: ['gendername'],
        // @ts-expect-error the bodies have genderName, not name
        unique: [{ constraint: 'genders_name_unique', field: 'name', message: 'Taken' }],
      });
    expect(misspelt).not.toThrow();
  });
});

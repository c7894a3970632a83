import {
  countryResource,
  employeeResource,
  genderResource,
  permissionResource,
  profileCreateSchema,
  profileUpdateSchema,
  roleResource,
  skillResource,
  userResource,
} from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { initialProfileValues, profileBody } from '../../src/registry/profile/profileValues';
import { requiredFields, requiredFieldsOf } from '../../src/registry/record/requiredFields';

const sorted = (names: ReadonlySet<string>) => [...names].sort();

describe('required fields come from the schema that validates the form', () => {
  it('marks what an empty create form is refused on', () => {
    expect(sorted(requiredFieldsOf(roleResource, 'create'))).toEqual(['roleName']);
    expect(sorted(requiredFieldsOf(genderResource, 'create'))).toEqual(['genderName']);
    expect(sorted(requiredFieldsOf(skillResource, 'create'))).toEqual(['title']);
    // Exactly two and three letters: an empty ISO code is refused too.
    expect(sorted(requiredFieldsOf(countryResource, 'create'))).toEqual(['iso2', 'iso3', 'name']);
    expect(sorted(requiredFieldsOf(userResource, 'create'))).toEqual([
      'email',
      'password',
      'roleCode',
      'username',
    ]);
    expect(sorted(requiredFieldsOf(employeeResource, 'create'))).toEqual([
      'departmentCode',
      'employeeId',
      'joinDate',
      'name',
    ]);
  });

  it('follows the update schema: an empty password keeps the current one', () => {
    expect(sorted(requiredFieldsOf(userResource, 'update'))).toEqual(['email', 'roleCode', 'username']);
  });

  it('names only fields of the form: the record code an update sends is not one', () => {
    expect(requiredFieldsOf(genderResource, 'update').has('genderCode')).toBe(false);
  });

  it('requires nothing on a view, nor on a module without forms', () => {
    expect(requiredFieldsOf(roleResource, 'view').size).toBe(0);
    expect(requiredFieldsOf(permissionResource, 'create').size).toBe(0);
  });

  it('reads nested keys of the profile body, whose address is optional', () => {
    const empty = initialProfileValues();
    expect(sorted(requiredFields(profileCreateSchema, profileBody(empty, 'create', '', false)))).toEqual([
      'dob',
      'firstName',
      'genderCode',
      'lastName',
      'userCode',
    ]);
    expect(
      sorted(requiredFields(profileUpdateSchema, profileBody(empty, 'update', 'PROFILE-1', false))),
    ).toEqual(['dob', 'firstName', 'genderCode', 'lastName']);
  });
});

import { departmentResource, genderResource, skillResource } from '@wfc/contract';
import {
  departments,
  employees,
  genders,
  performanceScores,
  profiles,
  skills,
} from '../../db/schema/index.ts';
import { defineServerResource } from '../server-resource.ts';

export const genders$ = defineServerResource({
  def: genderResource,
  table: genders,
  search: ['genderName'],
  unique: [
    {
      constraint: 'genders_name_unique',
      field: 'genderName',
      message: 'A gender with this name already exists',
    },
  ],
  dependents: [{ column: profiles.genderCode, one: 'profile', many: 'profiles' }],
});

export const departments$ = defineServerResource({
  def: departmentResource,
  table: departments,
  search: ['name'],
  unique: [
    {
      constraint: 'departments_name_unique',
      field: 'name',
      message: 'A department with this name already exists',
    },
  ],
  dependents: [{ column: employees.departmentCode, one: 'employee', many: 'employees' }],
});

export const skills$ = defineServerResource({
  def: skillResource,
  table: skills,
  search: ['title', 'description'],
  unique: [
    { constraint: 'skills_title_unique', field: 'title', message: 'A skill with this title already exists' },
  ],
  dependents: [{ column: performanceScores.skillCode, one: 'performance score', many: 'performance scores' }],
});

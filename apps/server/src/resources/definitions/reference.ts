import { departmentResource, genderResource, skillResource } from '@wfc/contract';
import {
  departments,
  employees,
  genders,
  performanceScores,
  profiles,
  skills,
} from '../../db/schema/index.ts';
import type { ServerResource } from '../server-resource.ts';

export const genders$: ServerResource = {
  def: genderResource,
  table: genders,
  idColumn: genders.id,
  codeColumn: genders.genderCode,
  updatedAtColumn: genders.updatedAt,
  shape: {
    genderCode: genders.genderCode,
    genderName: genders.genderName,
    createdAt: genders.createdAt,
    updatedAt: genders.updatedAt,
  },
  search: ['genderName'],
  unique: [
    {
      constraint: 'genders_name_unique',
      field: 'genderName',
      message: 'A gender with this name already exists',
    },
  ],
  dependents: [{ column: profiles.genderCode, one: 'profile', many: 'profiles' }],
};

export const departments$: ServerResource = {
  def: departmentResource,
  table: departments,
  idColumn: departments.id,
  codeColumn: departments.departmentCode,
  updatedAtColumn: departments.updatedAt,
  shape: {
    departmentCode: departments.departmentCode,
    name: departments.name,
    createdAt: departments.createdAt,
    updatedAt: departments.updatedAt,
  },
  search: ['name'],
  unique: [
    {
      constraint: 'departments_name_unique',
      field: 'name',
      message: 'A department with this name already exists',
    },
  ],
  dependents: [{ column: employees.departmentCode, one: 'employee', many: 'employees' }],
};

export const skills$: ServerResource = {
  def: skillResource,
  table: skills,
  idColumn: skills.id,
  codeColumn: skills.skillCode,
  updatedAtColumn: skills.updatedAt,
  shape: {
    skillCode: skills.skillCode,
    title: skills.title,
    description: skills.description,
    createdAt: skills.createdAt,
    updatedAt: skills.updatedAt,
  },
  search: ['title', 'description'],
  unique: [
    { constraint: 'skills_title_unique', field: 'title', message: 'A skill with this title already exists' },
  ],
  dependents: [{ column: performanceScores.skillCode, one: 'performance score', many: 'performance scores' }],
};

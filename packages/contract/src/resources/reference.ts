import { z } from 'zod';
import { codeRef, optionalText, requiredText } from '../fields.ts';
import { defineResource, TIMESTAMP_COLUMNS } from './define.ts';

export const genderCreateSchema = z.object({ genderName: requiredText('Gender name', 100) });
export const genderUpdateSchema = genderCreateSchema.extend({ genderCode: codeRef('Gender code') });

export const genderResource = defineResource({
  key: 'gender',
  label: 'Gender',
  plural: 'Genders',
  listSegment: 'genders',
  itemSegment: 'gender',
  code: 'genderCode',
  prefix: 'GENDER-',
  nameField: 'genderName',
  permissions: {
    view: 'VIEW_GENDERS',
    create: 'CREATE_GENDER',
    update: 'UPDATE_GENDER',
    delete: 'DELETE_GENDER',
  },
  endpoints: {
    list: 'GetGenders',
    get: 'GetGenderByCode',
    create: 'CreateGender',
    update: 'UpdateGender',
    delete: 'DeleteGender',
  },
  createSchema: genderCreateSchema,
  updateSchema: genderUpdateSchema,
  sortFields: ['genderName', 'createdAt', 'updatedAt'],
  columns: [{ path: 'genderName', label: 'Gender Name', sortField: 'genderName' }, ...TIMESTAMP_COLUMNS],
  formFields: [{ name: 'genderName', label: 'Gender Name', kind: 'text' }],
});

export const departmentCreateSchema = z.object({ name: requiredText('Name', 100) });
export const departmentUpdateSchema = departmentCreateSchema.extend({
  departmentCode: codeRef('Department code'),
});

export const departmentResource = defineResource({
  key: 'department',
  label: 'Department',
  plural: 'Departments',
  listSegment: 'departments',
  itemSegment: 'department',
  code: 'departmentCode',
  prefix: 'DEPT-',
  nameField: 'name',
  permissions: {
    view: 'VIEW_DEPARTMENTS',
    create: 'CREATE_DEPARTMENT',
    update: 'UPDATE_DEPARTMENT',
    delete: 'DELETE_DEPARTMENT',
  },
  endpoints: {
    list: 'GetDepartments',
    get: 'GetDepartmentByCode',
    create: 'CreateDepartment',
    update: 'UpdateDepartment',
    delete: 'DeleteDepartment',
  },
  createSchema: departmentCreateSchema,
  updateSchema: departmentUpdateSchema,
  sortFields: ['name', 'createdAt', 'updatedAt'],
  columns: [{ path: 'name', label: 'Name', sortField: 'name' }, ...TIMESTAMP_COLUMNS],
  formFields: [{ name: 'name', label: 'Name', kind: 'text' }],
});

export const skillCreateSchema = z.object({
  title: requiredText('Title', 100),
  description: optionalText('Description', 500),
});
export const skillUpdateSchema = skillCreateSchema.extend({ skillCode: codeRef('Skill code') });

export const skillResource = defineResource({
  key: 'skill',
  label: 'Skill',
  plural: 'Skills',
  listSegment: 'skills',
  itemSegment: 'skill',
  code: 'skillCode',
  prefix: 'SKILL-',
  nameField: 'title',
  permissions: {
    view: 'VIEW_SKILLS',
    create: 'CREATE_SKILL',
    update: 'UPDATE_SKILL',
    delete: 'DELETE_SKILL',
  },
  endpoints: {
    list: 'GetSkills',
    get: 'GetSkillByCode',
    create: 'CreateSkill',
    update: 'UpdateSkill',
    delete: 'DeleteSkill',
  },
  createSchema: skillCreateSchema,
  updateSchema: skillUpdateSchema,
  sortFields: ['title', 'description', 'createdAt', 'updatedAt'],
  columns: [
    { path: 'title', label: 'Title', sortField: 'title' },
    { path: 'description', label: 'Description', sortField: 'description' },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'title', label: 'Title', kind: 'text' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
});

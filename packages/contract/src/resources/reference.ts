import { z } from 'zod';
import { codeList, codeRef, optionalText, requiredText } from '../fields.ts';
import { defineResource, TIMESTAMP_COLUMNS } from './define.ts';
import { nullableText, text, versioned } from './record-parts.ts';

export const genderRecordSchema = z.strictObject({ genderCode: text, genderName: text, ...versioned });

export const departmentRecordSchema = z.strictObject({
  departmentCode: text,
  name: text,
  /** The employees who manage it: their team is its employees (docs/product.md section 6). */
  managers: z.array(z.strictObject({ employeeCode: text, name: text })),
  ...versioned,
});

export const skillRecordSchema = z.strictObject({
  skillCode: text,
  title: text,
  description: nullableText,
  ...versioned,
});

export const genderCreateSchema = z.object({ genderName: requiredText('Gender name', 100) });
export const genderUpdateSchema = genderCreateSchema.extend({ genderCode: codeRef('Gender code') });

export const genderResource = defineResource({
  key: 'gender',
  import: { key: ['genderName'] },
  recordSchema: genderRecordSchema,
  label: 'Gender',
  plural: 'Genders',
  nameField: 'genderName',
  createSchema: genderCreateSchema,
  updateSchema: genderUpdateSchema,
  columns: [{ path: 'genderName', label: 'Gender Name', sortable: true }, ...TIMESTAMP_COLUMNS],
  formFields: [{ name: 'genderName', label: 'Gender Name', kind: 'text' }],
});

export const departmentCreateSchema = z.object({
  name: requiredText('Name', 100),
  managerCodes: codeList('Managers', 50),
});
export const departmentUpdateSchema = departmentCreateSchema.extend({
  departmentCode: codeRef('Department code'),
});

export const departmentResource = defineResource({
  key: 'department',
  import: { key: ['name'] },
  recordSchema: departmentRecordSchema,
  label: 'Department',
  plural: 'Departments',
  prefix: 'DEPT-',
  nameField: 'name',
  createSchema: departmentCreateSchema,
  updateSchema: departmentUpdateSchema,
  columns: [{ path: 'name', label: 'Name', sortable: true }, ...TIMESTAMP_COLUMNS],
  formFields: [
    { name: 'name', label: 'Name', kind: 'text' },
    {
      name: 'managerCodes',
      label: 'Managers',
      kind: 'multiselect',
      source: 'employee',
      valuePath: 'managers[].employeeCode',
      labelPath: 'managers[].name',
      help: 'Managers see and score the employees of this department, as far as their role allows.',
    },
  ],
});

export const skillCreateSchema = z.object({
  title: requiredText('Title', 100),
  description: optionalText('Description', 500),
});
export const skillUpdateSchema = skillCreateSchema.extend({ skillCode: codeRef('Skill code') });

export const skillResource = defineResource({
  key: 'skill',
  import: { key: ['title'] },
  recordSchema: skillRecordSchema,
  label: 'Skill',
  plural: 'Skills',
  nameField: 'title',
  createSchema: skillCreateSchema,
  updateSchema: skillUpdateSchema,
  columns: [
    { path: 'title', label: 'Title', sortable: true },
    { path: 'description', label: 'Description', sortable: true },
    ...TIMESTAMP_COLUMNS,
  ],
  formFields: [
    { name: 'title', label: 'Title', kind: 'text' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
});

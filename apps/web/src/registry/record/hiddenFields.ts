import { type FormFieldDef, hiddenIn, type ResourceDef } from '@wfc/contract';
import { z } from 'zod';
import type { RegistryRecord } from '../queries';

/** The record key a form field reads its value from (`department` for `department.departmentCode`). */
const recordKeyOf = (field: FormFieldDef) => (field.valuePath ?? field.name).split('.')[0] ?? field.name;

/**
 * Pure: a form's fields split into those it edits and those whose values are personal data the
 * user may not see (absent from the record they were given): the latter are shown as hidden.
 */
export function splitHidden(
  def: ResourceDef,
  fields: readonly FormFieldDef[],
  record: RegistryRecord | undefined,
) {
  const keys = record ? hiddenIn(def, record) : [];
  if (!keys.length) return { shown: fields, hidden: [] as FormFieldDef[] };
  const isHidden = (f: FormFieldDef) => keys.includes(recordKeyOf(f));
  return { shown: fields.filter((f) => !isHidden(f)), hidden: fields.filter(isHidden) };
}

/** A body schema that does not ask for the named keys: the form does not send them. */
export function schemaWithout<S extends z.ZodType>(schema: S | undefined, keys: readonly string[]) {
  if (!schema || !keys.length || !(schema instanceof z.ZodObject)) return schema;
  const mask = Object.fromEntries(keys.map((k) => [k, true as const]));
  return schema.omit(mask as never) as unknown as S;
}

import type { ResourceDef } from '@wfc/contract';
import type { z } from 'zod';
import { type FormMode, fieldsFor, initialValues, toBody } from './formValues';

/**
 * The fields a form cannot be sent without: those its create or update schema refuses when the
 * form is sent empty. Read from the same schema that validates the form, so the markers and the
 * messages can never disagree. Keys are dotted body paths (`address.countryCode`).
 */
export function requiredFields(schema: z.ZodType | undefined, emptyBody: unknown): ReadonlySet<string> {
  const checked = schema?.safeParse(emptyBody);
  if (!checked || checked.success) return new Set();
  return new Set(checked.error.issues.map((issue) => issue.path.join('.')));
}

/** The required fields of a definition's form in `mode`; a view requires nothing. */
export function requiredFieldsOf(def: ResourceDef, mode: FormMode): ReadonlySet<string> {
  if (mode === 'view') return new Set();
  const fields = fieldsFor(def, mode);
  const schema = mode === 'create' ? def.createSchema : def.updateSchema;
  const required = requiredFields(schema, toBody(fields, initialValues(fields)));
  return new Set(fields.map((f) => f.name).filter((name) => required.has(name)));
}

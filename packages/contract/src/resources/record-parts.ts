import { z } from 'zod';

/*
 * The pieces records are made of. Records are schemas (docs/product.md section 4): their types
 * are inferred from them, the OpenAPI description is drawn from them, and the API tests parse
 * every answer with them strictly, so the server's shapes and these cannot drift apart. Dates are
 * ISO strings; a record names another one it refers to by `{code, name}`.
 */

export const text = z.string();
export const nullableText = z.string().nullable();
export const timestamp = z.iso.datetime({ offset: true });
export const timestamps = { createdAt: timestamp, updatedAt: timestamp };
/** What every editable record carries: its times and its version (1, then one more per update). */
export const versioned = { ...timestamps, version: z.number().int().min(1) };
/** `versioned`'s fields as the personal-data rules count them: none is about the person. */
export const versionedNotPersonal = { createdAt: false, updatedAt: false, version: false } as const;

/**
 * How a record names another one: `{departmentCode, name}`. The keys are the referenced
 * resource's code and name fields, so the two literal arguments give the schema its exact type.
 * A list asked with `populate=false` sends the code alone.
 */
export function referenceSchema<C extends string, N extends string>(code: C, name: N) {
  const shape: Record<string, z.ZodType> = {
    [code]: z.string(),
    [name]: z.string().optional().meta({ description: 'Absent when the list was asked with populate=false' }),
  };
  // A computed key widens to `string` in TypeScript; the two keys are exactly C and N.
  return z.strictObject(shape as { [K in C]: z.ZodString } & { [K in N]: z.ZodOptional<z.ZodString> });
}

/** What a list sends a caller who may only pick from it (a form's selector): code and name. */
export const lookupSchema = (code: string, name: string) =>
  z.strictObject({ [code]: z.string(), [name]: z.string() });

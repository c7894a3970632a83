import { autoMapping, type FieldError, type ImportField, type ImportMappingInput } from '@wfc/contract';
import { badRequest } from '../http/envelope.ts';

/**
 * The field each column is mapped to (null: ignored): the automatic match, or what the client
 * asked, by column (a list in the file's order) or by header (unnamed headers matched
 * automatically). Refuses (400) a field that does not exist or is mapped twice.
 */
export function resolveMapping(
  headers: readonly string[],
  fields: readonly ImportField[],
  asked: ImportMappingInput | undefined,
): (string | null)[] {
  const auto = autoMapping(headers, fields);
  let mapping: (string | null)[];
  if (asked === undefined) mapping = auto;
  else if (Array.isArray(asked)) mapping = headers.map((_, i) => asked[i] || null);
  else {
    const byHeader = new Map(Object.entries(asked));
    mapping = headers.map((h, i) => (byHeader.has(h) ? byHeader.get(h) || null : (auto[i] ?? null)));
  }
  const labels = new Map(fields.map((f) => [f.key, f.label]));
  const firstColumn = new Map<string, number>();
  const errors: FieldError[] = [];
  mapping.forEach((key, i) => {
    if (key === null) return;
    const label = labels.get(key);
    if (!label) {
      errors.push({ field: `mapping.${i}`, message: `Column ${headers[i]}: no field ${key}` });
      return;
    }
    const first = firstColumn.get(key);
    if (first !== undefined) {
      errors.push({
        field: `mapping.${i}`,
        message: `Columns ${headers[first]} and ${headers[i]} are both mapped to ${label}`,
      });
      return;
    }
    firstColumn.set(key, i);
  });
  if (errors.length) throw badRequest('Invalid mapping', errors);
  return mapping;
}

/** Pure: the column index of each mapped field. */
export function columnsOf(mapping: readonly (string | null)[]): Map<string, number> {
  const out = new Map<string, number>();
  mapping.forEach((key, i) => {
    if (key !== null) out.set(key, i);
  });
  return out;
}

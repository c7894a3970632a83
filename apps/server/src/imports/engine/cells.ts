import { booleanCell, dateCell, type ImportError, type ImportField, listCell } from '@wfc/contract';

/**
 * A cell as a body value, before references are resolved: text trimmed, dates in ISO form,
 * booleans, lists of references. `undefined` leaves the field out (an empty switch or password
 * keeps what the record has, or the schema's default).
 */
export type CellValue = string | boolean | string[] | undefined;

/**
 * Pure: a cell without the apostrophe that keeps text starting with = + - @ from running as a
 * formula: the console's CSV writes it (`inertText`) and a spreadsheet shows it as no part of the
 * value, so `'+47 22 00 00 00` is read back as the phone number it was.
 */
export const withoutInertMark = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** Pure: one cell read as its field's kind; a message when it cannot be. */
export function readCell(field: ImportField, cell: string): { value: CellValue } | { error: string } {
  const text = withoutInertMark(cell.trim());
  switch (field.kind) {
    case 'boolean': {
      if (text === '') return { value: undefined };
      const b = booleanCell(text);
      return b === undefined ? { error: `${field.label} must be Yes or No` } : { value: b };
    }
    case 'password':
      return { value: text === '' ? undefined : text };
    case 'date':
      return { value: text === '' ? '' : dateCell(text) };
    case 'references':
      return { value: listCell(text) };
    default:
      return { value: text };
  }
}

/** Sets a dotted body key (`address.countryCode`), making the groups on its way. */
export function setPath(body: Record<string, unknown>, key: string, value: unknown) {
  const keys = key.split('.');
  let group = body;
  for (const k of keys.slice(0, -1)) {
    const next = group[k];
    const copy: Record<string, unknown> =
      next !== null && typeof next === 'object' && !Array.isArray(next) ? { ...next } : {};
    group[k] = copy;
    group = copy;
  }
  group[keys.at(-1) ?? key] = value;
}

/** The value at a dotted key of a body. */
export function getPath(body: unknown, key: string): unknown {
  let value: unknown = body;
  for (const k of key.split('.')) {
    value = value !== null && typeof value === 'object' ? new Map(Object.entries(value)).get(k) : undefined;
  }
  return value;
}

/**
 * Pure: a value in a canonical text form, for telling whether an update changes anything: keys
 * sorted, lists of plain values sorted (the order of a role's permissions means nothing), null and
 * absent alike.
 */
export function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    return `[${value.every((v) => typeof v !== 'object' || v === null) ? items.sort().join(',') : items.join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Pure: a field error of a body (`address.countryCode`) as an error of the row, at the column mapped to it. */
export function rowError(
  row: number,
  field: string | undefined,
  message: string,
  headers: readonly string[],
  columns: ReadonlyMap<string, number>,
): ImportError {
  const index = field === undefined ? undefined : columns.get(field.replace(/\.\d+$/, ''));
  return { row, column: index === undefined ? null : (headers[index] ?? null), message };
}

/** Pure: a value of a stored body as a sample shows it. */
export function sampleText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(sampleText).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

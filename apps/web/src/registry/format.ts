import type { ColumnDef, ResourceDef } from '@wfc/contract';
import { readPath } from './paths';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// Calendar dates (YYYY-MM-DD) carry no time zone: formatting them in UTC keeps the day unchanged.
const calendarDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export const EMPTY_CELL = '—';

export function formatCell(record: unknown, column: ColumnDef): string {
  const value = readPath(record, column.path);
  if (column.format === 'count') return String(Array.isArray(value) ? value.length : 0);
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  if (column.format === 'datetime' || column.format === 'date') {
    const d = new Date(column.format === 'date' ? `${String(value)}T00:00:00Z` : String(value));
    if (Number.isNaN(d.getTime())) return String(value);
    return (column.format === 'date' ? calendarDate : dateTime).format(d);
  }
  return String(value);
}

/** A record's display name (its definition's name field), or '' when it has none. */
export function recordName(def: ResourceDef, record: unknown): string {
  const value = readPath(record, def.nameField);
  return typeof value === 'string' ? value : '';
}

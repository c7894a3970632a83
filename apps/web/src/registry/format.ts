import type { ColumnDef, ResourceDef } from '@wfc/contract';
import { formatDate, formatDateTime } from '../ui/dates';
import { readPath } from './paths';

export const EMPTY_CELL = '—';

export function formatCell(record: unknown, column: ColumnDef): string {
  const value = readPath(record, column.path);
  if (column.format === 'count') return String(Array.isArray(value) ? value.length : 0);
  if (column.format === 'switch' && typeof value === 'boolean') {
    const { on, off } = column.switchLabels ?? { on: 'Yes', off: 'No' };
    return value ? on : off;
  }
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  if (column.format === 'date') return formatDate(String(value));
  if (column.format === 'datetime') return formatDateTime(String(value));
  return String(value);
}

/** A record's display name (its definition's name field), or '' when it has none. */
export function recordName(def: ResourceDef, record: unknown): string {
  const value = readPath(record, def.nameField);
  return typeof value === 'string' ? value : '';
}

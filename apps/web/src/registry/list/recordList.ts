import type { ColumnDef, ResourceDef } from '@wfc/contract';
import { recordName } from '../format';
import type { RegistryRecord } from '../queries';

/** Rules of a list's rows, shared by the table and the phone's cards. */

/** A row's radio names the record, or its code when it has no name. */
export const selectLabel = (def: ResourceDef, row: RegistryRecord) =>
  `Select ${recordName(def, row) || String(row[def.code])}`;

/** A row's check box, which adds it to the records a bulk action applies to. */
export const checkLabel = (def: ResourceDef, row: RegistryRecord) =>
  `Choose ${recordName(def, row) || String(row[def.code])}`;

/** The check box that chooses, or lets go of, every record of the page. */
export const checkAllLabel = (def: ResourceDef) => `Choose every ${def.label.toLowerCase()} of this page`;

/** A phone shows this many of a record's columns under its title: enough to tell rows apart. */
export const CARD_FIELDS = 3;

/** What a phone card shows: the display name's column as its title, and a few others under it. */
export interface CardLayout {
  title: ColumnDef | undefined;
  fields: readonly ColumnDef[];
}

/**
 * The title is the column showing the record's display name, else the first column. The fields are
 * the other columns in the table's order, which puts the telling ones first (an employee's Id,
 * department and join date) and the timestamps last.
 */
export function cardLayout(def: ResourceDef, max = CARD_FIELDS): CardLayout {
  const title = def.columns.find((c) => c.path === def.nameField) ?? def.columns[0];
  return { title, fields: def.columns.filter((c) => c !== title).slice(0, max) };
}

/** Creation order: every list's default sort, named for the phone's Sort by menu. */
export const CREATION_ORDER = { sortField: '_id', label: 'Date added' } as const;

export interface SortChoice {
  sortField: string;
  label: string;
}

/** The phone's Sort by choices: creation order, then every sortable column by its header. */
export function sortChoices(def: ResourceDef): SortChoice[] {
  return [
    CREATION_ORDER,
    ...def.columns.flatMap((c) => (c.sortField ? [{ sortField: c.sortField, label: c.label }] : [])),
  ];
}

import { type ColumnDef, HIDDEN_FIELD_TEXT, isDetailPath, type ResourceDef } from '@wfc/contract';
import { formatCell } from '../format';
import type { RegistryRecord } from '../queries';
import { useResourceExtension } from '../resourceExtension';

/** How `def`'s list says a cell: as its module's extension says it, else as its column's format. */
export function useCellText(def: ResourceDef): (row: RegistryRecord, column: ColumnDef) => string {
  const { cells } = useResourceExtension(def);
  return (row, column) =>
    isHiddenCell(def, row, column)
      ? HIDDEN_FIELD_TEXT
      : (cells?.[column.path]?.(row) ?? formatCell(row, column));
}

/** Pure: the cell holds personal data the viewer may not see: its field is absent from the row. */
export const isHiddenCell = (def: ResourceDef, row: RegistryRecord, column: ColumnDef) =>
  isDetailPath(def, column.path) && !((column.path.split('.')[0] ?? '') in row);

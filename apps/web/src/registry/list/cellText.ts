import type { ColumnDef, ResourceDef } from '@wfc/contract';
import { formatCell } from '../format';
import type { RegistryRecord } from '../queries';
import { useResourceExtension } from '../resourceExtension';

/** How `def`'s list says a cell: as its module's extension says it, else as its column's format. */
export function useCellText(def: ResourceDef): (row: RegistryRecord, column: ColumnDef) => string {
  const { cells } = useResourceExtension(def);
  return (row, column) => cells?.[column.path]?.(row) ?? formatCell(row, column);
}

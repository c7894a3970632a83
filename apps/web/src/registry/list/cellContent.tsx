import type { ColumnDef, ResourceDef } from '@wfc/contract';
import type { ReactNode } from 'react';
import { HiddenValue } from '../../ui/HiddenValue';
import type { RegistryRecord } from '../queries';
import { ReferenceLink } from '../ReferenceLink';
import { columnReference } from '../references';
import { useResourceExtension } from '../resourceExtension';
import { isHiddenCell, useCellText } from './cellText';

/**
 * What a list cell shows: another record's name (a state's country) as a link to that record's
 * view for those who may view it, any other cell as its text. A cell its module's extension says
 * otherwise is said as the extension says it.
 */
export function useCellContent(def: ResourceDef): (row: RegistryRecord, column: ColumnDef) => ReactNode {
  const cellText = useCellText(def);
  const { cells } = useResourceExtension(def);
  return (row, column) => {
    if (isHiddenCell(def, row, column)) return <HiddenValue />;
    const reference = cells?.[column.path] ? undefined : columnReference(row, column);
    return reference ? <ReferenceLink reference={reference} /> : cellText(row, column);
  };
}

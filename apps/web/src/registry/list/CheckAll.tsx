import Checkbox from '@mui/material/Checkbox';
import type { ResourceDef } from '@wfc/contract';
import type { RegistryRecord } from '../queries';
import type { RecordListProps } from './RecordTable';
import { checkAllLabel } from './recordList';

/** Whether the page's rows are all, some or none of the chosen ones: the select-all box's state. */
function pageChecked(def: ResourceDef, rows: readonly RegistryRecord[], checked: ReadonlySet<string>) {
  const on = rows.filter((r) => checked.has(String(r[def.code]))).length;
  return { all: rows.length > 0 && on === rows.length, some: on > 0 && on < rows.length };
}

/** The select-all box of a page: all of its rows, or none when all were chosen. */
export function CheckAll({
  def,
  rows,
  checked,
  onCheck,
}: Pick<RecordListProps, 'def' | 'rows'> & Required<Pick<RecordListProps, 'checked' | 'onCheck'>>) {
  const state = pageChecked(def, rows, checked);
  return (
    <Checkbox
      checked={state.all}
      indeterminate={state.some}
      disabled={rows.length === 0}
      onChange={() =>
        onCheck(
          rows.map((r) => String(r[def.code])),
          !state.all,
        )
      }
      slotProps={{ input: { 'aria-label': checkAllLabel(def) } }}
    />
  );
}

import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Radio from '@mui/material/Radio';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ColumnDef, ResourceDef } from '@wfc/contract';
import { Fragment, type KeyboardEvent, type ReactNode } from 'react';
import { visuallyHidden } from '../../ui/paging';
import type { RegistryRecord } from '../queries';
import { CheckAll } from './CheckAll';
import { useCellContent } from './cellContent';
import type { TableQuery } from './listQuery';
import { RecordCards } from './RecordCards';
import { useFocusBackOnClear } from './RowActions';
import { checkLabel, selectLabel } from './recordList';

export interface RecordListProps {
  def: ResourceDef;
  title: string;
  rows: readonly RegistryRecord[];
  query: TableQuery;
  onSort(sortField: string): void;
  /** The selected row's code. */
  selected: string | null;
  onSelect(code: string): void;
  /** Opens a row's view: on double-click, and on Enter on its selection. Absent: rows open nothing. */
  onOpen?(code: string): void;
  /** The selected row's actions, shown right under it: next in the tab order after its radio. */
  actions?: ReactNode;
  /** The rows chosen for a bulk action, by code; with `onCheck`, each row has a check box. */
  checked?: ReadonlySet<string>;
  onCheck?(codes: readonly string[], on: boolean): void;
}

/**
 * A page of records, one selectable at a time (and, for bulk actions, any number chosen by their
 * check boxes), with the definition's columns and sort headers; below the `sm` breakpoint, one
 * card per record instead.
 */
export function RecordTable(props: RecordListProps) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return phone ? <RecordCards {...props} /> : <Rows {...props} />;
}

function Rows(props: RecordListProps) {
  const { def, title, rows, query, onSort, selected, onSelect, onOpen, actions, checked, onCheck } = props;
  const container = useFocusBackOnClear(selected);
  const cellContent = useCellContent(def);
  const columnCount = def.columns.length + (checked && onCheck ? 2 : 1);
  return (
    <TableContainer ref={container} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={title} sx={{ minWidth: 640 }}>
        <TableHead>
          <TableRow>
            {checked && onCheck && (
              <TableCell padding="checkbox">
                <CheckAll def={def} rows={rows} checked={checked} onCheck={onCheck} />
              </TableCell>
            )}
            <TableCell padding="checkbox">
              <Box component="span" sx={visuallyHidden}>
                Select
              </Box>
            </TableCell>
            {def.columns.map((col) => (
              <HeaderCell key={col.path} column={col} query={query} onSort={onSort} />
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columnCount} align="center" sx={{ py: 6 }}>
                <Typography color="text.secondary">{def.messages.empty}</Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => {
              const code = String(row[def.code]);
              const isSelected = code === selected;
              const withActions = isSelected && Boolean(actions);
              return (
                <Fragment key={code}>
                  <TableRow
                    hover
                    selected={isSelected || Boolean(checked?.has(code))}
                    onClick={() => onSelect(code)}
                    onDoubleClick={onOpen ? () => onOpen(code) : undefined}
                    onKeyDown={
                      onOpen
                        ? (e: KeyboardEvent) => {
                            if (e.key !== 'Enter') return;
                            e.preventDefault();
                            onOpen(code);
                          }
                        : undefined
                    }
                    sx={{
                      cursor: 'pointer',
                      // The actions row below belongs to this one: no rule between them.
                      '& > td': withActions ? { borderBottom: 0 } : undefined,
                    }}
                  >
                    {checked && onCheck && (
                      // A click on the box chooses the row for a bulk action, not for its own actions.
                      <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
                        <Checkbox
                          checked={checked.has(code)}
                          onChange={(e) => onCheck([code], e.target.checked)}
                          slotProps={{ input: { 'aria-label': checkLabel(def, row) } }}
                        />
                      </TableCell>
                    )}
                    <TableCell padding="checkbox">
                      <Radio
                        checked={isSelected}
                        onChange={() => onSelect(code)}
                        value={code}
                        name={`${def.key}-selection`}
                        slotProps={{ input: { 'aria-label': selectLabel(def, row) } }}
                      />
                    </TableCell>
                    {def.columns.map((col) => (
                      <TableCell
                        key={col.path}
                        sx={{
                          whiteSpace:
                            col.format === 'datetime' || col.format === 'date' ? 'nowrap' : undefined,
                          maxWidth: 360,
                          overflowWrap: 'anywhere',
                        }}
                      >
                        {cellContent(row, col)}
                      </TableCell>
                    ))}
                  </TableRow>
                  {withActions && (
                    <TableRow selected>
                      {/* Indented past the boxes and radios: the buttons line up with the first column. */}
                      <TableCell
                        colSpan={columnCount}
                        sx={{ pt: 0.5, pb: 1.5, pl: checked && onCheck ? 14 : 8.5 }}
                      >
                        {actions}
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function HeaderCell({
  column,
  query,
  onSort,
}: {
  column: ColumnDef;
  query: TableQuery;
  onSort(sortField: string): void;
}) {
  const { sortField } = column;
  const active = Boolean(sortField) && query.sortField === sortField;
  return (
    <TableCell
      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
      sortDirection={active ? query.sortValue : false}
    >
      {sortField ? (
        <TableSortLabel
          active={active}
          direction={active ? query.sortValue : 'asc'}
          onClick={() => onSort(sortField)}
        >
          {column.label}
        </TableSortLabel>
      ) : (
        column.label
      )}
    </TableCell>
  );
}

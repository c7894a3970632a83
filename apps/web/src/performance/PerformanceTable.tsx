import SwipeIcon from '@mui/icons-material/SwipeOutlined';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PerformanceRow, PerformanceSkillCell, PerformanceSortField } from '@wfc/contract';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { skillColumnWidth } from './columns';
import { GridRow, type GridState } from './GridRow';
import { HeaderRow } from './HeaderRow';
import type { GridQuery } from './query';
import { AVERAGE_WIDTH, NAME_WIDTH, NAME_WIDTH_PHONE, scoreInputsSx } from './tableStyles';
import { type RowWindow, useRowWindow } from './useRowWindow';

export const EMPTY_TABLE_TEXT = 'No data added yet (or) No data matching the current filter';

interface Props extends Omit<GridState, 'widths'> {
  rows: readonly PerformanceRow[];
  skills: readonly PerformanceSkillCell[];
  query: GridQuery;
  onSort(field: PerformanceSortField): void;
  /** Set to a function that scrolls a row into the drawn window (the keyboard's moves use it). */
  revealRow: RefObject<((row: number) => void) | null>;
  /** The focused cell, whose row stays drawn. */
  activeCell: RefObject<{ row: number }>;
}

/** Whether the table is wider than its box: then, and only then, say that it scrolls sideways. */
function useOverflows(ref: RefObject<HTMLDivElement | null>) {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/** Said above the grid when it is wider than its box, and only then. */
function ScrollHint() {
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <SwipeIcon fontSize="small" aria-hidden />
      Scroll sideways to see every column.
    </Typography>
  );
}

/** Room kept for rows not drawn, above and between the drawn ones, so the scroll bar is true. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <TableRow aria-hidden sx={{ height }}>
      <TableCell colSpan={columns} sx={{ p: 0, border: 0 }} />
    </TableRow>
  );
}

/** The drawn rows, with spacers standing in for the rows scrolled out of view. */
function Rows({
  rows,
  win,
  columns,
  ...state
}: GridState & { rows: readonly PerformanceRow[]; win: RowWindow; columns: number }) {
  const out = [];
  let cursor = 0;
  for (const item of win.items) {
    const row = rows[item.index];
    if (!row) continue;
    if (item.start > cursor)
      out.push(<Spacer key={`gap-${item.index}`} height={item.start - cursor} columns={columns} />);
    out.push(
      <GridRow key={row.employeeCode} row={row} index={item.index} measure={win.measure} {...state} />,
    );
    cursor = item.end;
  }
  if (win.total > cursor) out.push(<Spacer key="end" height={win.total - cursor} columns={columns} />);
  return out;
}

/**
 * The grid: employee, one column per skill, then the three averages. While editing, a whole day
 * can be thousands of rows: only those in view (and a few around them) are drawn.
 */
export function PerformanceTable({ rows, skills, query, onSort, revealRow, activeCell, ...state }: Props) {
  const columns = skills.length + 5;
  const box = useRef<HTMLDivElement>(null);
  const overflows = useOverflows(box);
  const widths = useMemo(() => skills.map((s) => skillColumnWidth(s.title)), [skills]);
  const win = useRowWindow({
    count: rows.length,
    box,
    virtual: state.editing,
    density: state.density,
    kept: activeCell,
  });
  revealRow.current = win.reveal;
  return (
    <>
      {overflows && <ScrollHint />}
      <TableContainer
        ref={box}
        sx={{
          overflowX: 'auto',
          // While editing the box scrolls on every screen: the drawn window follows its scrolling.
          maxHeight: state.editing ? '70vh' : { md: '70vh' },
          scrollPaddingLeft: { xs: NAME_WIDTH_PHONE, sm: NAME_WIDTH },
          scrollPaddingRight: { lg: `calc(3 * ${AVERAGE_WIDTH})` },
          scrollPaddingTop: win.headHeight,
        }}
      >
        <Table
          size="small"
          stickyHeader
          aria-label="Performance snapshot"
          sx={[{ borderCollapse: 'separate' }, scoreInputsSx]}
        >
          <TableHead ref={win.headRef}>
            <HeaderRow skills={skills} widths={widths} query={query} onSort={onSort} />
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columns} align="center" sx={{ py: 6 }}>
                  <Typography color="text.secondary">{EMPTY_TABLE_TEXT}</Typography>
                </TableCell>
              </TableRow>
            ) : (
              <Rows rows={rows} win={win} columns={columns} widths={widths} {...state} />
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

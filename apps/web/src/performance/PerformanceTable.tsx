import SwipeIcon from '@mui/icons-material/SwipeOutlined';
import Box from '@mui/material/Box';
import { alpha, type Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  formatAverage,
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceRow,
  type PerformanceSkillCell,
  type PerformanceSortField,
} from '@wfc/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { visuallyHidden } from '../ui/paging';
import { ConflictChoice } from './ConflictChoice';
import { cellKey, cellText, type Drafts, isCellChanged } from './grid';
import type { Conflicts } from './merge';
import type { GridQuery } from './query';
import { ScoreCell, type ScoreCellHandlers } from './ScoreCell';

/** No column of the grid is narrower than this. */
const COLUMN_WIDTH = '10rem';
export const EMPTY_TABLE_TEXT = 'No data added yet (or) No data matching the current filter';

interface Props {
  rows: readonly PerformanceRow[];
  skills: readonly PerformanceSkillCell[];
  query: GridQuery;
  editing: boolean;
  saving: boolean;
  drafts: Drafts;
  cellErrors: ReadonlyMap<string, string>;
  /** Cells someone else changed too since they were loaded, by `employeeCode|skillCode`. */
  conflicts: Conflicts;
  /** The cell (employeeCode|skillCode) whose entry was just reverted. */
  flash: string | null;
  handlers: ScoreCellHandlers;
  onSort(field: PerformanceSortField): void;
  onResolve(employeeCode: string, skillCode: string, choice: 'theirs' | 'mine'): void;
}

const t = PERFORMANCE_COLUMN_TITLES;

/*
 * Frozen panes: from the sm breakpoint the name stays in view while the skills scroll past it,
 * and from lg the three averages stay in view on the right. On a phone everything scrolls, or
 * the frozen columns would leave no room for the scores.
 */
const stickyName = {
  position: { sm: 'sticky' },
  // Offsets are responsive too: the sticky header cells would otherwise pin on a phone.
  left: { sm: 0 },
  boxShadow: { sm: 'inset -1px 0 0 rgba(0, 0, 0, 0.12)' },
} as const;
const AVERAGE_OFFSETS = ['20rem', COLUMN_WIDTH, 0] as const;
const stickyAverage = (i: number) =>
  ({
    position: { lg: 'sticky' },
    right: { lg: AVERAGE_OFFSETS[i] },
    width: COLUMN_WIDTH,
    maxWidth: COLUMN_WIDTH,
    ...(i === 0 ? { boxShadow: { lg: 'inset 1px 0 0 rgba(0, 0, 0, 0.12)' } } : {}),
  }) as const;
/** Above frozen body cells, and frozen header cells above both. */
const Z_FROZEN_BODY = 1;
const Z_FROZEN_HEAD = 3;

function Empty() {
  return (
    <>
      <Box component="span" aria-hidden sx={{ color: 'text.disabled' }}>
        –
      </Box>
      <Box component="span" sx={visuallyHidden}>
        None
      </Box>
    </>
  );
}

function SortHeader({
  field,
  query,
  onSort,
  children,
  sx,
}: {
  field: PerformanceSortField;
  query: GridQuery;
  onSort(field: PerformanceSortField): void;
  children: ReactNode;
  sx?: object;
}) {
  const active = query.sortField === field;
  return (
    <TableCell sortDirection={active ? query.sortValue : false} sx={{ ...headSx, ...sx }}>
      <TableSortLabel
        active={active}
        direction={active ? query.sortValue : 'asc'}
        onClick={() => onSort(field)}
      >
        {children}
      </TableSortLabel>
    </TableCell>
  );
}

/** Whether the table is wider than its box: then, and only then, say that it scrolls sideways. */
function useOverflows() {
  const ref = useRef<HTMLDivElement>(null);
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
  }, []);
  return { ref, overflows };
}

/** The grid: employee, one column per skill, then the three averages. */
export function PerformanceTable({
  rows,
  skills,
  query,
  editing,
  saving,
  drafts,
  cellErrors,
  conflicts,
  flash,
  handlers,
  onSort,
  onResolve,
}: Props) {
  const columnCount = skills.length + 5;
  const { ref, overflows } = useOverflows();
  return (
    <>
      {overflows && (
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
      )}
      <TableContainer ref={ref} sx={{ overflowX: 'auto', maxHeight: { md: '70vh' } }}>
        <Table
          size="small"
          stickyHeader
          aria-label="Performance snapshot"
          sx={{ borderCollapse: 'separate' }}
        >
          <TableHead>
            <TableRow>
              <SortHeader field="employeeId" query={query} onSort={onSort}>
                {t.employeeId}
              </SortHeader>
              <SortHeader
                field="name"
                query={query}
                onSort={onSort}
                sx={{ ...stickyName, zIndex: Z_FROZEN_HEAD }}
              >
                {t.employeeName}
              </SortHeader>
              {skills.map((s) => (
                <TableCell key={s.skillCode} align="center" sx={headSx}>
                  {s.title}
                </TableCell>
              ))}
              {AVERAGES.map((a, i) => (
                <SortHeader
                  key={a.field}
                  field={a.field}
                  query={query}
                  onSort={onSort}
                  sx={{ ...stickyAverage(i), textAlign: 'right', zIndex: Z_FROZEN_HEAD }}
                >
                  {a.title}
                </SortHeader>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} align="center" sx={{ py: 6 }}>
                  <Typography color="text.secondary">{EMPTY_TABLE_TEXT}</Typography>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row, r) => (
                <TableRow key={row.employeeCode} hover={!editing}>
                  <TableCell sx={{ ...bodySx, fontVariantNumeric: 'tabular-nums' }}>
                    {row.employeeId}
                  </TableCell>
                  <TableCell
                    component="th"
                    scope="row"
                    sx={{ ...bodySx, ...stickyName, zIndex: Z_FROZEN_BODY, fontWeight: 600 }}
                  >
                    {row.employeeName}
                  </TableCell>
                  {row.skills.map((skill, c) => {
                    const key = cellKey(row.employeeCode, skill.skillCode);
                    const error = cellErrors.get(key);
                    const conflict = conflicts.get(key);
                    const label = `${skill.title} score for ${row.employeeName}`;
                    const conflictId = conflict ? `score-conflict-${r}-${c}` : undefined;
                    if (!editing) {
                      return (
                        <TableCell key={skill.skillCode} align="center" sx={scoreSx}>
                          {skill.score === null ? <Empty /> : skill.score}
                        </TableCell>
                      );
                    }
                    const input = (
                      <ScoreCell
                        row={r}
                        col={c}
                        value={cellText(drafts, row, c)}
                        label={label}
                        changed={isCellChanged(drafts, row, c)}
                        invalid={Boolean(error) || flash === key}
                        conflict={Boolean(conflict)}
                        describedBy={conflictId}
                        disabled={saving}
                        handlers={handlers}
                      />
                    );
                    return (
                      <TableCell
                        key={skill.skillCode}
                        align="center"
                        sx={{ ...scoreSx, py: 0.5, ...(conflict ? conflictSx : {}) }}
                      >
                        {error ? (
                          <Tooltip title={error} open arrow placement="top">
                            <Box>{input}</Box>
                          </Tooltip>
                        ) : (
                          input
                        )}
                        {conflict && conflictId && (
                          <ConflictChoice
                            id={conflictId}
                            conflict={conflict}
                            label={label}
                            onChoose={(choice) => onResolve(row.employeeCode, skill.skillCode, choice)}
                          />
                        )}
                      </TableCell>
                    );
                  })}
                  {AVERAGES.map((a, i) => {
                    const value = row.total[a.field];
                    return (
                      <TableCell
                        key={a.field}
                        align="right"
                        sx={{ ...averageSx, ...stickyAverage(i), zIndex: Z_FROZEN_BODY }}
                      >
                        {value === null ? <Empty /> : formatAverage(value)}
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

const AVERAGES = [
  { field: 'daily', title: t.daily },
  { field: 'monthly', title: t.monthly },
  { field: 'yearly', title: t.yearly },
] as const;

const headSx = {
  minWidth: COLUMN_WIDTH,
  fontWeight: 600,
  whiteSpace: 'nowrap',
  bgcolor: 'grey.50',
  borderBottom: 1,
  borderColor: 'divider',
} as const;

const bodySx = {
  minWidth: COLUMN_WIDTH,
  bgcolor: 'background.paper',
  overflowWrap: 'anywhere',
} as const;

const scoreSx = { minWidth: COLUMN_WIDTH, fontVariantNumeric: 'tabular-nums' } as const;

/** A cell both users changed: tinted and edged so it stands out in a page of inputs. */
const conflictSx = {
  bgcolor: (theme: Theme) => alpha(theme.palette.warning.main, 0.16),
} as const;

const averageSx = {
  minWidth: COLUMN_WIDTH,
  fontVariantNumeric: 'tabular-nums',
  fontWeight: 600,
  // Opaque, so the skills scrolling underneath the frozen averages do not show through.
  bgcolor: '#f5faf7',
} as const;

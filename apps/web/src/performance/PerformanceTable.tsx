import SwipeIcon from '@mui/icons-material/SwipeOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { Theme } from '@mui/material/styles';
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
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../ui/paging';
import { ConflictChoice } from './ConflictChoice';
import { cellKey, cellText, type Drafts, draftDaily, heatColours, isCellChanged, isRowChanged } from './grid';
import type { Conflicts } from './merge';
import type { GridQuery } from './query';
import { ScoreCell, type ScoreCellHandlers } from './ScoreCell';

/*
 * Column widths: the frozen columns' are fixed, so that their offsets are exact, and headers
 * wrap onto two lines rather than widen a column; with these a 1440 px screen shows about eight
 * skills beside the frozen columns.
 */
const ID_WIDTH = '6rem';
const NAME_WIDTH = '10rem';
const NAME_WIDTH_PHONE = '8.5rem';
const SKILL_WIDTH = '6.25rem';
const AVERAGE_WIDTH = '6.25rem';
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
  /** Score cells coloured by value (read-only grid). */
  heatMap: boolean;
  onSort(field: PerformanceSortField): void;
  onResolve(employeeCode: string, skillCode: string, choice: 'theirs' | 'mine'): void;
}

const t = PERFORMANCE_COLUMN_TITLES;

/** Width, min and max alike: a table cell otherwise grows to its content. */
const fixedWidth = (width: string | { xs: string; sm: string }) =>
  ({ width, minWidth: width, maxWidth: width }) as const;

/*
 * Frozen panes: the name stays in view while the skills scroll past it (narrower on a phone, so
 * three scores still fit beside it), and from lg the three averages stay in view on the right.
 * The scroll box keeps the same room free when it scrolls a focused cell into view
 * (scroll-padding), so the cell is never scrolled under the frozen name.
 */
const stickyName = {
  position: 'sticky',
  left: 0,
  ...fixedWidth({ xs: NAME_WIDTH_PHONE, sm: NAME_WIDTH }),
  boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.vars.palette.divider}`,
} as const;
const AVERAGE_OFFSETS = [`calc(2 * ${AVERAGE_WIDTH})`, AVERAGE_WIDTH, 0] as const;
const stickyAverage = (i: number) =>
  ({
    position: { lg: 'sticky' },
    right: { lg: AVERAGE_OFFSETS[i] },
    ...fixedWidth(AVERAGE_WIDTH),
    px: 1,
    ...(i === 0 ? { boxShadow: { lg: 'inset 1px 0 0 var(--mui-palette-divider)' } } : {}),
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

/** The grid: employee, one column per skill, then the three averages. */
export function PerformanceTable({ rows, skills, query, onSort, ...state }: Props) {
  const columnCount = skills.length + 5;
  const { ref, overflows } = useOverflows();
  return (
    <>
      {overflows && <ScrollHint />}
      <TableContainer
        ref={ref}
        sx={{
          overflowX: 'auto',
          maxHeight: { md: '70vh' },
          scrollPaddingLeft: { xs: NAME_WIDTH_PHONE, sm: NAME_WIDTH },
          scrollPaddingRight: { lg: `calc(3 * ${AVERAGE_WIDTH})` },
        }}
      >
        <Table
          size="small"
          stickyHeader
          aria-label="Performance snapshot"
          sx={{ borderCollapse: 'separate' }}
        >
          <TableHead>
            <HeaderRow skills={skills} query={query} onSort={onSort} />
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} align="center" sx={{ py: 6 }}>
                  <Typography color="text.secondary">{EMPTY_TABLE_TEXT}</Typography>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row, r) => <GridRow key={row.employeeCode} row={row} index={r} {...state} />)
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

function HeaderRow({ skills, query, onSort }: Pick<Props, 'skills' | 'query' | 'onSort'>) {
  return (
    <TableRow>
      <SortHeader field="employeeId" query={query} onSort={onSort} sx={fixedWidth(ID_WIDTH)}>
        {t.employeeId}
      </SortHeader>
      <SortHeader field="name" query={query} onSort={onSort} sx={{ ...stickyName, zIndex: Z_FROZEN_HEAD }}>
        {t.employeeName}
      </SortHeader>
      {skills.map((s) => (
        <TableCell key={s.skillCode} align="center" sx={{ ...headSx, ...skillHeadSx }}>
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
  );
}

/** What a row needs of the grid's state: the edit in progress and its checks. */
type GridState = Omit<Props, 'rows' | 'skills' | 'query' | 'onSort'>;

function GridRow({ row, index, ...state }: GridState & { row: PerformanceRow; index: number }) {
  const { editing, drafts } = state;
  return (
    <TableRow hover={!editing}>
      <TableCell sx={{ ...bodySx, ...fixedWidth(ID_WIDTH), fontVariantNumeric: 'tabular-nums' }}>
        {row.employeeId}
      </TableCell>
      <TableCell
        component="th"
        scope="row"
        title={row.employeeName}
        sx={{ ...bodySx, ...stickyName, ...nameSx, zIndex: Z_FROZEN_BODY }}
      >
        <Link
          component={RouterLink}
          to={`/performance-snapshot/employees/${encodeURIComponent(row.employeeCode)}`}
          color="inherit"
          underline="hover"
        >
          {row.employeeName}
        </Link>
      </TableCell>
      {row.skills.map((skill, c) =>
        editing ? (
          <EditedScore key={skill.skillCode} row={row} r={index} c={c} skill={skill} {...state} />
        ) : (
          <TableCell
            key={skill.skillCode}
            align="center"
            sx={[scoreSx, state.heatMap && skill.score !== null ? heatSx(skill.score) : null]}
          >
            {skill.score === null ? <Empty /> : skill.score}
          </TableCell>
        ),
      )}
      {AVERAGES.map((a, i) => {
        // While editing, the daily average follows the typed scores at once.
        const unsaved = a.field === 'daily' && editing && isRowChanged(drafts, row);
        const value = unsaved ? draftDaily(drafts, row) : row.total[a.field];
        return (
          <TableCell
            key={a.field}
            align="right"
            sx={{ ...averageSx, ...stickyAverage(i), zIndex: Z_FROZEN_BODY }}
          >
            {value === null ? <Empty /> : formatAverage(value)}
            {unsaved && <UnsavedMark />}
          </TableCell>
        );
      })}
    </TableRow>
  );
}

/** A score being edited: its input, its error above it, and the choice when someone else changed it too. */
function EditedScore({
  row,
  r,
  c,
  skill,
  saving,
  drafts,
  cellErrors,
  conflicts,
  flash,
  handlers,
  onResolve,
}: GridState & { row: PerformanceRow; r: number; c: number; skill: PerformanceSkillCell }) {
  const key = cellKey(row.employeeCode, skill.skillCode);
  const error = cellErrors.get(key);
  const conflict = conflicts.get(key);
  const label = `${skill.title} score for ${row.employeeName}`;
  const conflictId = conflict ? `score-conflict-${r}-${c}` : undefined;
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
    <TableCell align="center" sx={{ ...scoreSx, py: 0.5, ...(conflict ? conflictSx : {}) }}>
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
}

const AVERAGES = [
  { field: 'daily', title: t.daily },
  { field: 'monthly', title: t.monthly },
  { field: 'yearly', title: t.yearly },
] as const;

const headSx = {
  fontWeight: 600,
  fontSize: '0.8125rem',
  // Nothing in a header may stick out of its column: the scroll width would grow past the last
  // column and leave an empty strip after it when scrolled fully right.
  overflow: 'hidden',
  lineHeight: 1.3,
  verticalAlign: 'bottom',
  bgcolor: 'background.subtle',
  borderBottom: 1,
  borderColor: 'divider',
} as const;

const bodySx = {
  bgcolor: 'background.paper',
  overflowWrap: 'anywhere',
} as const;

/** One line per name: a long one ends in an ellipsis and shows whole on hover and on its page. */
const nameSx = {
  fontWeight: 600,
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
} as const;

const scoreSx = { minWidth: SKILL_WIDTH, px: 1, fontVariantNumeric: 'tabular-nums' } as const;

/** A scored cell on the heat map, in the blues of the scheme on screen. */
const heatSx = (score: number) => (theme: Theme) => {
  const light = heatColours(score, 'light');
  const dark = heatColours(score, 'dark');
  return {
    bgcolor: light.bg,
    color: light.fg,
    ...theme.applyStyles('dark', { bgcolor: dark.bg, color: dark.fg }),
  };
};

/**
 * Skill columns are at least SKILL_WIDTH and grow to their title's longest word (a title wraps
 * between words only): nothing is frozen after them, so their widths need not be known.
 */
const skillHeadSx = { minWidth: SKILL_WIDTH, px: 1, overflowWrap: 'normal' } as const;

/** A cell both users changed: tinted and edged so it stands out in a page of inputs. */
const conflictSx = {
  bgcolor: (theme: Theme) => theme.alpha(theme.vars.palette.warning.main, 0.16),
} as const;

const averageSx = {
  fontVariantNumeric: 'tabular-nums',
  fontWeight: 600,
  // Opaque, so the skills scrolling underneath the frozen averages do not show through.
  bgcolor: 'background.tint',
} as const;

/** Marks a daily average computed from scores not saved yet. */
function UnsavedMark() {
  return (
    <Tooltip title="Not saved yet">
      <Box component="span" sx={{ ml: 0.5, color: 'warning.dark' }}>
        <Box component="span" aria-hidden>
          *
        </Box>
        <Box component="span" sx={visuallyHidden}>
          (not saved yet)
        </Box>
      </Box>
    </Tooltip>
  );
}

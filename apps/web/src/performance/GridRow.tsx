import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import {
  formatAverage,
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceRow,
  type PerformanceSkillCell,
} from '@wfc/contract';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../ui/paging';
import { ConflictChoice } from './ConflictChoice';
import { CELL_PADDING_Y, type Density } from './columns';
import { cellKey, cellText, type Drafts, draftDaily, isCellChanged, isRowChanged } from './grid';
import type { Conflicts } from './merge';
import { ScoreCell, type ScoreCellHandlers } from './ScoreCell';
import {
  averageSx,
  bodySx,
  conflictSx,
  fixedWidth,
  heatSx,
  ID_WIDTH,
  nameSx,
  scoreSx,
  stickyAverage,
  stickyName,
  Z_FROZEN_BODY,
} from './tableStyles';

const t = PERFORMANCE_COLUMN_TITLES;
export const AVERAGES = [
  { field: 'daily', title: t.daily },
  { field: 'monthly', title: t.monthly },
  { field: 'yearly', title: t.yearly },
] as const;

/** What a row needs of the grid's state: the edit in progress and its checks. */
export interface GridState {
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
  density: Density;
  /** Each skill column's width, in column order. */
  widths: readonly string[];
  onResolve(employeeCode: string, skillCode: string, choice: 'theirs' | 'mine'): void;
}

export function Empty() {
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

interface RowProps extends GridState {
  row: PerformanceRow;
  index: number;
  /** Measures the drawn row for the virtualiser. */
  measure?(el: HTMLTableRowElement | null): void;
}

/**
 * One employee's row. Scrolling a long day draws new rows and moves the others: a row whose
 * props did not change is not drawn again, so a scroll step costs the rows it brings in.
 */
export const GridRow = memo(function GridRow({ row, index, measure, ...state }: RowProps) {
  const { editing, drafts, density, widths } = state;
  const py = CELL_PADDING_Y[density][editing ? 'edit' : 'read'];
  return (
    <TableRow hover={!editing} ref={measure} data-index={index}>
      <TableCell sx={{ ...bodySx, ...fixedWidth(ID_WIDTH), py, fontVariantNumeric: 'tabular-nums' }}>
        {row.employeeId}
      </TableCell>
      <TableCell
        component="th"
        scope="row"
        title={row.employeeName}
        sx={{ ...bodySx, ...stickyName, ...nameSx, py, zIndex: Z_FROZEN_BODY }}
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
            sx={[
              { ...scoreSx, ...fixedWidth(widths[c] ?? ''), py },
              state.heatMap && skill.score !== null ? heatSx(skill.score) : null,
            ]}
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
            sx={{ ...averageSx, ...stickyAverage(i), py, zIndex: Z_FROZEN_BODY }}
          >
            {value === null ? <Empty /> : formatAverage(value)}
            {unsaved && <UnsavedMark />}
          </TableCell>
        );
      })}
    </TableRow>
  );
});

/** A score being edited: its input, its error above it, and the choice when someone else changed it too. */
function EditedScore({
  row,
  r,
  c,
  skill,
  ...state
}: GridState & { row: PerformanceRow; r: number; c: number; skill: PerformanceSkillCell }) {
  const { drafts, cellErrors, conflicts, flash, density } = state;
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
      disabled={state.saving}
      dense={density === 'compact'}
      handlers={state.handlers}
    />
  );
  const py = CELL_PADDING_Y[density].edit;
  return (
    <TableCell
      align="center"
      sx={{ ...scoreSx, ...fixedWidth(state.widths[c] ?? ''), py, ...(conflict ? conflictSx : {}) }}
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
          onChoose={(choice) => state.onResolve(row.employeeCode, skill.skillCode, choice)}
        />
      )}
    </TableCell>
  );
}

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

import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import { FUTURE_SCORE_MESSAGE, PERFORMANCE_MESSAGES } from '@wfc/contract';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError, errorMessage } from '../api/client';
import { failureOf } from '../api/retry';
import { useCan, useUnsavedInput } from '../auth/auth';
import { DiscardDialog } from '../ui/DiscardDialog';
import { formatDate } from '../ui/dates';
import { notify } from '../ui/notify';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { TableSkeleton } from '../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { nextSort } from '../ui/tableState/tableUrl';
import { useUnsavedChangesGuard } from '../ui/useUnsavedChangesGuard';
import { EditingBar } from './EditingBar';
import { FilterForm } from './FilterForm';
import { firstConflict, unresolvedMessage } from './merge';
import { useExportCsv, useSavePerformances } from './mutations';
import { PerformanceActions } from './PerformanceActions';
import { PerformanceTable } from './PerformanceTable';
import { type GridQuery, isFutureDate, withDepartment, withFilter } from './query';
import { StaleAlert } from './StaleAlert';
import { useCellHandlers } from './useCellHandlers';
import { useGridDraft } from './useGridDraft';
import { usePerformanceQuery } from './usePerformanceQuery';

/** To the charts of every employee's scores over time. */
function OverviewLink() {
  return (
    <Button
      component={RouterLink}
      to="/performance-snapshot/overview"
      variant="outlined"
      startIcon={<InsightsIcon />}
    >
      Overview
    </Button>
  );
}

/** Above the grid: its filters, and the heat map's switch (off while editing). */
function GridToolbar({
  query,
  onQuery,
  heatMap,
  onHeatMap,
  editing,
}: {
  query: GridQuery;
  onQuery(query: GridQuery): void;
  heatMap: boolean;
  onHeatMap(on: boolean): void;
  editing: boolean;
}) {
  return (
    <Box
      sx={{
        p: 2,
        borderBottom: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'flex-start',
        justifyContent: 'space-between',
      }}
    >
      <FilterForm
        date={query.date}
        keyword={query.keyword}
        departmentCode={query.departmentCode}
        onApply={(date, keyword) => onQuery(withFilter(query, date, keyword))}
        onDepartment={(code) => onQuery(withDepartment(query, code))}
      />
      <FormControlLabel
        control={<Switch checked={heatMap} onChange={(e) => onHeatMap(e.target.checked)} />}
        label="Heat map"
        disabled={editing}
        sx={{ mr: 0, minHeight: 40 }}
      />
    </Box>
  );
}

/** The Performance Snapshot: a date's scores per employee and skill, editable in place. */
export default function PerformancePage() {
  const { query, setQuery, queryString, grid, rows, total, today } = usePerformanceQuery();
  const future = isFutureDate(query.date, today);
  const canEdit = useCan()('CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE') && !future;
  const [heatMap, setHeatMap] = useState(false);
  const { state, dispatch, pending, dirty } = useGridDraft(rows, queryString);
  const { handlers, focusFirstCell, focusCell } = useCellHandlers(rows, dispatch);
  const blocker = useUnsavedChangesGuard(dirty);
  useUnsavedInput(dirty);
  const save = useSavePerformances({
    onSaved: () => dispatch({ type: 'stop' }),
    onRefused: (cellErrors) => dispatch({ type: 'refused', cellErrors }),
    onStale: (message, current) => dispatch({ type: 'stale', message, current }),
  });
  const exportCsv = useExportCsv();
  // A failed save stays said in the editing area while the drafts are those it failed to save.
  const [saveFailure, setSaveFailure] = useState<{ message: string; drafts: typeof state.drafts } | null>(
    null,
  );

  const heading = { title: 'Performance Snapshot', subtitle: `Scores for ${formatDate(query.date)}` };
  // With no grid to show, the screen keeps its heading over the failure or the grid's outline.
  if (grid.error || !grid.data) {
    return (
      <Box>
        <ScreenHeader {...heading} />
        {grid.error ? (
          <RequestError {...failureOf(grid, PERFORMANCE_MESSAGES.failedList)} />
        ) : (
          <TableSkeleton label="Loading performances" columns={6} variant="grid" />
        )}
      </Box>
    );
  }

  const blocked = blocker.state === 'blocked';
  return (
    <Box>
      <ScreenHeader
        {...heading}
        actions={
          <>
            <OverviewLink />
            <PerformanceActions
              editing={state.editing}
              canEdit={canEdit}
              hasRows={rows.length > 0}
              dirty={dirty}
              saving={save.isPending}
              exporting={exportCsv.isPending}
              onEdit={() => {
                dispatch({ type: 'edit' });
                focusFirstCell();
              }}
              onSave={() => {
                if (!dirty || save.isPending) return;
                // Someone else's value would be overwritten without the user having chosen it.
                if (state.conflicts.size > 0) notify.error(unresolvedMessage(state.conflicts.size));
                else {
                  const drafts = state.drafts;
                  setSaveFailure(null);
                  save.mutate(pending, {
                    onError: (err) => {
                      // A stale save is explained above the grid (StaleAlert).
                      if (err instanceof ApiError && err.status === 409 && Array.isArray(err.data)) return;
                      setSaveFailure({ message: errorMessage(err, PERFORMANCE_MESSAGES.failedSave), drafts });
                    },
                  });
                }
              }}
              onCancel={() => dispatch({ type: dirty ? 'askCancel' : 'stop' })}
              onExport={() => exportCsv.mutate(query)}
            />
          </>
        }
      />
      {state.stale && (
        <StaleAlert
          message={state.stale}
          conflicts={state.conflicts.size}
          dirty={dirty}
          onShowConflict={() => {
            const pos = firstConflict(rows, state.conflicts);
            if (pos) focusCell(pos);
          }}
        />
      )}
      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <GridToolbar
          query={query}
          onQuery={setQuery}
          heatMap={heatMap}
          onHeatMap={setHeatMap}
          editing={state.editing}
        />
        {future && (
          <Alert severity="info" sx={{ borderRadius: 0 }}>
            {FUTURE_SCORE_MESSAGE}: this date can be read but not edited.
          </Alert>
        )}
        {state.editing && (
          <EditingBar
            changedCount={pending.length}
            failure={saveFailure?.drafts === state.drafts ? saveFailure.message : undefined}
            onDismissFailure={() => setSaveFailure(null)}
          />
        )}
        <PerformanceTable
          rows={rows}
          skills={rows[0]?.skills ?? []}
          query={query}
          editing={state.editing}
          saving={save.isPending}
          drafts={state.drafts}
          cellErrors={state.cellErrors}
          conflicts={state.conflicts}
          flash={state.flash}
          handlers={handlers}
          heatMap={heatMap && !state.editing}
          onSort={(field) => setQuery(nextSort(query, field))}
          onResolve={(employeeCode, skillCode, choice) =>
            dispatch({ type: 'resolve', employeeCode, skillCode, choice })
          }
        />
        <TablePager total={total} query={query} onChange={setQuery} />
        {grid.isFetching && <LoadingOverlay label="Loading performances" zIndex={3} />}
      </Paper>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {state.announcement}
      </Box>
      <DiscardDialog
        open={blocked || state.confirmingCancel}
        text="Some scores have been changed but not saved. Leaving now will lose them."
        onStay={() => (blocked ? blocker.reset() : dispatch({ type: 'keepEditing' }))}
        onDiscard={() => (blocked ? blocker.proceed() : dispatch({ type: 'stop' }))}
      />
    </Box>
  );
}

import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { FUTURE_SCORE_MESSAGE, PERFORMANCE_MESSAGES } from '@wfc/contract';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { failureOf } from '../api/retry';
import { useCan, useUnsavedInput } from '../auth/auth';
import { ImportButton } from '../imports/ImportButton';
import { DiscardDialog } from '../ui/DiscardDialog';
import { formatDate } from '../ui/dates';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { TableSkeleton } from '../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { nextSort } from '../ui/tableState/tableUrl';
import { EditingBar } from './EditingBar';
import { GridToolbar } from './GridToolbar';
import { firstConflict } from './merge';
import { useExportCsv } from './mutations';
import { PerformanceActions } from './PerformanceActions';
import { PerformanceTable } from './PerformanceTable';
import { isFutureDate } from './query';
import { StaleAlert } from './StaleAlert';
import { useDayEdit } from './useDayEdit';
import { useDensity } from './useDensity';
import { useGridSave } from './useGridSave';
import { useLeaveGuard } from './useLeaveGuard';
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

/** The Performance Snapshot: a date's scores per employee and skill, editable in place. */
export default function PerformancePage() {
  const { query, setQuery, grid, rows: pageRows, total, today } = usePerformanceQuery();
  const future = isFutureDate(query.date, today);
  const canEdit = useCan()('CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE') && !future;
  const [heatMap, setHeatMap] = useState(false);
  const [density, setDensity] = useDensity();
  const edit = useDayEdit(query, pageRows);
  const { rows, state, dispatch, pending, dirty, editing } = edit;
  const blocker = useLeaveGuard(dirty);
  useUnsavedInput(dirty);
  const save = useGridSave(state, dispatch, pending);
  const exportCsv = useExportCsv();

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
            {!state.editing && <ImportButton module="performance" />}
            <PerformanceActions
              editing={state.editing}
              canEdit={canEdit}
              hasRows={rows.length > 0}
              dirty={dirty}
              saving={save.saving}
              exporting={exportCsv.isPending}
              onEdit={edit.startEditing}
              onSave={save.start}
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
            if (pos) edit.focusCell(pos);
          }}
        />
      )}
      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <GridToolbar
          query={query}
          onQuery={setQuery}
          heatMap={heatMap}
          onHeatMap={setHeatMap}
          density={density}
          onDensity={setDensity}
          editing={state.editing}
        />
        {future && (
          <Alert severity="info" sx={{ borderRadius: 0 }}>
            {FUTURE_SCORE_MESSAGE}: this date can be read but not edited.
          </Alert>
        )}
        {editing && (
          <EditingBar
            changedCount={pending.length}
            rowCount={rows.length}
            failure={save.failure?.message}
            savedCount={save.failure?.saved}
            onDismissFailure={save.dismiss}
            onNextUnscored={edit.focusNextUnscored}
          />
        )}
        <PerformanceTable
          rows={rows}
          skills={rows[0]?.skills ?? []}
          query={query}
          editing={editing}
          saving={save.saving}
          density={density}
          revealRow={edit.revealRow}
          activeCell={edit.active}
          drafts={state.drafts}
          cellErrors={state.cellErrors}
          conflicts={state.conflicts}
          flash={state.flash}
          handlers={edit.handlers}
          heatMap={heatMap && !editing}
          onSort={(field) => setQuery(nextSort(query, field))}
          onResolve={(employeeCode, skillCode, choice) =>
            dispatch({ type: 'resolve', employeeCode, skillCode, choice })
          }
        />
        {/* The whole day is on screen while editing: nothing to page through. */}
        {!state.editing && <TablePager total={total} query={query} onChange={setQuery} />}
        {(grid.isFetching || edit.loadingDay) && <LoadingOverlay label="Loading performances" zIndex={3} />}
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

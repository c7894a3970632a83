import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/EditOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FieldError,
  PERFORMANCE_ENDPOINTS,
  PERFORMANCE_MESSAGES,
  type PerformanceRow,
  SCORE_MESSAGE,
} from '@wfc/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate, useSearchParams } from 'react-router';
import { ApiFetchError, api } from '../api/client';
import { useAuth, useCan } from '../auth/auth';
import { ScreenHeader } from '../registry/ScreenHeader';
import { notify } from '../ui/notify';
import { PageLoader } from '../ui/PageLoader';
import { lastPage, visuallyHidden } from '../ui/paging';
import { Spinner } from '../ui/Spinner';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { downloadPerformanceCsv } from './exportCsv';
import { FilterForm } from './FilterForm';
import {
  acceptCellInput,
  type CellPos,
  changedRows,
  type Drafts,
  type MoveKey,
  moveCell,
  parseBlock,
  pasteBlock,
  pasteSummary,
  withCell,
} from './grid';
import { PerformanceTable } from './PerformanceTable';
import { type GridQuery, readGridQuery, todayIso, toggleSort, withFilter, writeGridQuery } from './query';
import type { ScoreCellHandlers } from './ScoreCell';
import { serverCellErrors } from './serverErrors';

const NO_DRAFTS: Drafts = new Map();
const FLASH_MS = 1500;

const longDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${iso}T12:00:00Z`),
  );

/** The Performance Snapshot (SPEC.md section 2): a date's scores per employee and skill, editable in place. */
export default function PerformancePage() {
  const today = useMemo(() => todayIso(), []);
  const [params, setParams] = useSearchParams();
  const query = readGridQuery(params, today);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { clear: signOutLocally } = useAuth();
  const can = useCan();
  const canEdit = can('CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE');

  const [editing, setEditing] = useState(false);
  const [drafts, setDraftState] = useState<Drafts>(NO_DRAFTS);
  // Handlers compute from the latest drafts, even before React has re-rendered with them.
  const draftsRef = useRef<Drafts>(NO_DRAFTS);
  const setDrafts = useCallback((next: Drafts) => {
    draftsRef.current = next;
    setDraftState(next);
  }, []);
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [cellErrors, setCellErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [flash, setFlash] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);

  const grid = useQuery({
    queryKey: ['performance', 'grid', query],
    queryFn: () => api.get<PerformanceRow[]>(PERFORMANCE_ENDPOINTS.list, { ...query }),
    placeholderData: keepPreviousData,
  });
  const envelope = grid.data;
  const rows = useMemo(() => (envelope?.statusCode === 200 ? (envelope.data ?? []) : []), [envelope]);
  const total = envelope?.total ?? rows.length;
  const skills = rows[0]?.skills ?? [];

  const pending = useMemo(() => changedRows(rows, drafts), [rows, drafts]);
  const dirty = pending.length > 0;

  // Drafts belong to the rows they were typed on; another date or page starts clean.
  const queryKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the trigger.
  useEffect(() => {
    setDrafts(NO_DRAFTS);
    setCellErrors(new Map());
  }, [queryKey, setDrafts]);

  const setQuery = (next: GridQuery) => setParams(writeGridQuery(next, today));

  // A link past the last page (or a filter that shrank the list) shows the last real page.
  const pastEnd =
    envelope?.statusCode === 200 && rows.length === 0 && query.page > lastPage(total, query.limit);
  useEffect(() => {
    if (pastEnd)
      setParams(writeGridQuery({ ...query, page: lastPage(total, query.limit) }, today), { replace: true });
  }, [pastEnd, query, total, setParams, today]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  // The handlers read the latest state through refs, so the memoised cells never re-render for them.
  const cells = useRef(new Map<string, HTMLInputElement>());
  const latest = useRef({ rows, skillCount: skills.length });
  latest.current = { rows, skillCount: skills.length };

  const handlers = useMemo<ScoreCellHandlers>(
    () => ({
      register(pos, el) {
        const key = `${pos.row}:${pos.col}`;
        if (el) cells.current.set(key, el);
        else cells.current.delete(key);
      },
      onInput(pos, text) {
        const row = latest.current.rows[pos.row];
        const skill = row?.skills[pos.col];
        if (!row || !skill) return;
        const accepted = acceptCellInput(text);
        const key = `${row.employeeCode}|${skill.skillCode}`;
        if (accepted === null) {
          // The input is controlled: not storing the text puts the previous value back.
          setFlash(key);
          setAnnouncement(`${SCORE_MESSAGE}. "${text.trim()}" was reverted.`);
          return;
        }
        setDrafts(withCell(draftsRef.current, row.employeeCode, skill.skillCode, accepted));
        setFlash(null);
        setCellErrors((errors) => {
          if (!errors.has(key)) return errors;
          const next = new Map(errors);
          next.delete(key);
          return next;
        });
      },
      onPaste(pos, text) {
        const {
          drafts: next,
          written,
          rejected,
        } = pasteBlock(draftsRef.current, latest.current.rows, pos, parseBlock(text));
        setDrafts(next);
        setFlash(null);
        setAnnouncement(pasteSummary(written, rejected));
        if (rejected) notify.error(pasteSummary(written, rejected));
      },
      onMove(pos: CellPos, key: MoveKey) {
        const next = moveCell(pos, key, latest.current.rows.length, latest.current.skillCount);
        cells.current.get(`${next.row}:${next.col}`)?.focus();
      },
    }),
    [setDrafts],
  );

  function startEditing() {
    setEditing(true);
    setCellErrors(new Map());
    // Keyboard users land in the first cell, ready to type.
    requestAnimationFrame(() => cells.current.get('0:0')?.focus());
  }

  function stopEditing() {
    setEditing(false);
    setDrafts(NO_DRAFTS);
    setCellErrors(new Map());
    setConfirmCancel(false);
  }

  async function save() {
    if (!dirty || saving) return;
    setSaving(true);
    try {
      const res = await api.post(PERFORMANCE_ENDPOINTS.save, { performances: pending });
      if (res.statusCode === 200) {
        notify.success(res.message || PERFORMANCE_MESSAGES.saved);
        stopEditing();
        await queryClient.invalidateQueries({ queryKey: ['performance'] });
      } else {
        setCellErrors(serverCellErrors(res.errors ?? ([] as FieldError[]), pending));
        notify.error(res.message || PERFORMANCE_MESSAGES.failedSave);
      }
    } catch (err) {
      notify.error(err instanceof ApiFetchError ? err.message : PERFORMANCE_MESSAGES.failedSave);
    } finally {
      setSaving(false);
    }
  }

  async function exportCsv() {
    setExporting(true);
    try {
      const outcome = await downloadPerformanceCsv(query);
      if (outcome.ok) return;
      // The download bypasses the API client, so its 401 and 403 rules are applied here.
      if (outcome.status === 401) signOutLocally();
      else if (outcome.status === 403) navigate('/access-denied', { replace: true });
      else notify.error(outcome.message);
    } finally {
      setExporting(false);
    }
  }

  const failure = grid.error
    ? grid.error instanceof ApiFetchError
      ? grid.error.message
      : PERFORMANCE_MESSAGES.failedList
    : envelope && envelope.statusCode !== 200
      ? envelope.message || PERFORMANCE_MESSAGES.failedList
      : null;
  if (failure) {
    return (
      <Alert severity="error" role="alert" sx={{ my: 2 }}>
        {failure}
      </Alert>
    );
  }
  if (!envelope) return <PageLoader label="Loading performances" />;

  const changedCount = pending.length;
  const actions = (
    <>
      {editing ? (
        <>
          <Button
            variant="contained"
            startIcon={saving ? <Spinner label="Saving" /> : <SaveIcon />}
            disabled={!dirty || saving}
            onClick={save}
          >
            {saving ? 'Saving...' : 'Save'}
          </Button>
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<CloseIcon />}
            disabled={saving}
            onClick={() => (dirty ? setConfirmCancel(true) : stopEditing())}
          >
            Cancel
          </Button>
        </>
      ) : (
        canEdit && (
          <Button
            variant="contained"
            startIcon={<EditIcon />}
            disabled={rows.length === 0}
            onClick={startEditing}
          >
            Edit
          </Button>
        )
      )}
      <Button
        variant="outlined"
        startIcon={exporting ? <Spinner label="Exporting" /> : <DownloadIcon />}
        disabled={exporting}
        onClick={exportCsv}
      >
        {exporting ? 'Exporting...' : 'Export CSV'}
      </Button>
    </>
  );

  return (
    <Box>
      <ScreenHeader
        title="Performance Snapshot"
        subtitle={`Scores for ${longDate(query.date)}`}
        actions={actions}
      />
      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box sx={{ p: 2, borderBottom: 1, borderColor: 'divider' }}>
          <FilterForm
            date={query.date}
            keyword={query.keyword}
            onApply={(date, keyword) => setQuery(withFilter(query, date, keyword))}
          />
        </Box>
        {editing && (
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 1,
              px: 2,
              py: 1.25,
              borderBottom: 1,
              borderColor: 'divider',
              bgcolor: 'action.hover',
            }}
          >
            <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 24rem' }}>
              Type a whole number from 0 to 10, or leave a cell empty. Arrow keys, Tab and Enter move between
              cells; a block copied from a spreadsheet can be pasted into any cell.
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} aria-live="polite">
              {changedCount === 0
                ? 'No changes yet'
                : `${changedCount} row${changedCount === 1 ? '' : 's'} changed`}
            </Typography>
          </Box>
        )}
        <PerformanceTable
          rows={rows}
          skills={skills}
          query={query}
          editing={editing}
          saving={saving}
          drafts={drafts}
          cellErrors={cellErrors}
          flash={flash}
          handlers={handlers}
          onSort={(field) => setQuery(toggleSort(query, field))}
        />
        <TablePager total={total} query={query} onChange={setQuery} />
        {grid.isFetching && <LoadingOverlay label="Loading performances" zIndex={3} />}
      </Paper>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      <DiscardDialog
        open={blocker.state === 'blocked' || confirmCancel}
        onStay={() => (blocker.state === 'blocked' ? blocker.reset() : setConfirmCancel(false))}
        onDiscard={() => (blocker.state === 'blocked' ? blocker.proceed() : stopEditing())}
      />
    </Box>
  );
}

function DiscardDialog({ open, onStay, onDiscard }: { open: boolean; onStay(): void; onDiscard(): void }) {
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby="discard-title" aria-describedby="discard-text">
      <DialogTitle id="discard-title">Discard unsaved changes?</DialogTitle>
      <DialogContent>
        <DialogContentText id="discard-text">
          Some scores have been changed but not saved. Leaving now will lose them.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onStay} autoFocus>
          Keep editing
        </Button>
        <Button color="error" onClick={onDiscard}>
          Discard changes
        </Button>
      </DialogActions>
    </Dialog>
  );
}

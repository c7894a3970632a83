import HistoryIcon from '@mui/icons-material/History';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { alpha, type Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { hiddenIn, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { formatDateTime } from '../../ui/dates';
import { HiddenValue } from '../../ui/HiddenValue';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { EMPTY_CELL } from '../format';
import { DEFAULT_TABLE_QUERY } from '../list/listQuery';
import { historyPath, useNavigateWithBack, viewPath } from '../paths';
import { useListQuery } from '../queries';
import type { FormMode } from '../record/formValues';
import { formTitle, type RecordFormProps, RecordScreen } from '../record/RecordScreen';
import { useRecordPermissions } from '../useRecordPermissions';
import { auditDiff, type DiffRow } from './auditDiff';
import { actionLabel, auditHeadline, auditRecordLabel, auditTarget, moduleLabel } from './auditText';
import { type RestorableEntry, RestoreVersion, restoreOffered } from './RestoreVersion';

const AUDIT = RESOURCE_BY_KEY.audit;

/** The audit log's view: who did what when, and the change as the record's fields side by side. */
export function AuditView({ mode }: { mode: FormMode }) {
  return (
    <RecordScreen def={AUDIT} mode={mode}>
      {(props) => <AuditEntry {...props} />}
    </RecordScreen>
  );
}

/** A changed field stands out by a tint and by its 'Changed' label, not by colour alone. */
const changedRow = (theme: Theme) => ({ '& td': { bgcolor: alpha(theme.palette.warning.main, 0.1) } });

function AuditEntry({ def, mode, record: entry, back }: RecordFormProps<typeof AUDIT>) {
  // A phone has no room for three columns: each field becomes a block of its own.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const target = auditTarget(entry?.collection);
  const rows = auditDiff(entry?.before, entry?.after, entry?.changes, target);
  const recordCode = entry?.recordCode ?? '';
  const facts: [string, string][] = [
    ['Action', entry ? actionLabel(entry.action) : ''],
    ['Module', entry ? moduleLabel(entry.collection) : ''],
    ['User', entry?.user?.username ?? ''],
    // The zone is named: an auditor compares this time with logs kept elsewhere.
    ['Created At', entry?.createdAt ? formatDateTime(entry.createdAt, { withZone: true }) : ''],
    ['Record', entry ? auditRecordLabel(entry) : ''],
    ['Record code', recordCode],
  ];
  const hidden = hiddenOf(target, entry?.after ?? entry?.before);
  // A create has no before and a delete no after: a column of dashes says nothing.
  const sides = { before: entry?.before != null, after: entry?.after != null };
  return (
    <Box>
      <ScreenHeader
        title={formTitle(def, mode)}
        subtitle={entry ? auditHeadline(entry) : undefined}
        back={back.to}
        backState={back.state}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
            gap: 1,
            columnGap: 3,
            m: 0,
          }}
        >
          {facts.map(([label, value]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary" sx={{ fontWeight: 600 }}>
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value || EMPTY_CELL}
              </Typography>
            </Box>
          ))}
        </Box>
        {entry && target && recordCode && <RecordLink def={target} code={recordCode} entry={entry} />}
        <Typography component="h2" variant="h6" sx={{ mt: 3, mb: 1 }}>
          Changes
        </Typography>
        {hidden.length > 0 && (
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            <HiddenValue /> {hidden.join(', ')}: personal data, shown to those who need to know it.
          </Typography>
        )}
        {rows.length === 0 ? (
          <Typography color="text.secondary">No record data was kept for this entry.</Typography>
        ) : phone ? (
          <ChangeList rows={rows} sides={sides} />
        ) : (
          <ChangeTable rows={rows} sides={sides} />
        )}
      </Paper>
    </Box>
  );
}

/** The labels of the audited record's fields that were left out for this viewer (need-to-know). */
function hiddenOf(target: ResourceDef | undefined, audited: unknown): string[] {
  if (!target || typeof audited !== 'object' || audited === null) return [];
  return hiddenIn(target, audited).map(
    (key) => target.formFields.find((f) => (f.valuePath ?? f.name).split('.')[0] === key)?.label ?? key,
  );
}

interface RecordLinkProps {
  def: ResourceDef;
  code: string;
  entry: RestorableEntry;
}

/**
 * A way to the record the entry is about, while it exists and the user may view it, to its whole
 * history, and, for an update, back to the values it replaced. Whether the record still exists is
 * read from the log itself (a DELETE entry), so a deleted record costs no failed request.
 */
function RecordLink({ def, code, entry }: RecordLinkProps) {
  const allowed = useRecordPermissions(def);
  const go = useNavigateWithBack();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 2 }}>
      {allowed.view && <RecordState def={def} code={code} />}
      <Button startIcon={<HistoryIcon />} onClick={() => go(historyPath(def, code))}>
        History of this record
      </Button>
      {restoreOffered(entry, def, allowed.update) && (
        <RestoreWhileExists def={def} code={code} entry={entry} />
      )}
    </Box>
  );
}

/** How many DELETE entries the record has (0 or 1); undefined until known. */
function useDeletions(def: ResourceDef, code: string): number | undefined {
  const deletions = useListQuery(RESOURCE_BY_KEY.audit, {
    ...DEFAULT_TABLE_QUERY,
    limit: 1,
    filters: { collection: def.listSegment, recordCode: code, action: 'DELETE' },
  });
  return deletions.data?.total;
}

/** A deleted record has nothing to restore to: the offer waits until the log says it exists. */
function RestoreWhileExists({ def, code, entry }: RecordLinkProps) {
  return useDeletions(def, code) === 0 ? (
    <RestoreVersion def={def} auditCode={entry.auditCode} code={code} />
  ) : null;
}

/** View {Label} while the record exists; that it was deleted otherwise. */
function RecordState({ def, code }: { def: ResourceDef; code: string }) {
  const go = useNavigateWithBack();
  const total = useDeletions(def, code);
  if (total === undefined) return null;
  return total === 0 ? (
    <Button variant="outlined" startIcon={<OpenInNewIcon />} onClick={() => go(viewPath(def, code))}>
      View {def.label}
    </Button>
  ) : (
    <Typography color="text.secondary">This {def.label.toLowerCase()} has been deleted.</Typography>
  );
}

const wrapping = { overflowWrap: 'anywhere' } as const;

// The label's text keeps the page's own colour: orange text on the tint would fail contrast.
const ChangedLabel = () => (
  <Chip
    label="Changed"
    size="small"
    variant="outlined"
    sx={{ ml: 1, borderColor: 'warning.main', color: 'text.primary' }}
  />
);

type Sides = Readonly<Record<'before' | 'after', boolean>>;

const SIDE_LABEL = { before: 'Before', after: 'After' } as const;

const shownSides = (sides: Sides) => (['before', 'after'] as const).filter((side) => sides[side]);

function ChangeTable({ rows, sides }: { rows: readonly DiffRow[]; sides: Sides }) {
  const shown = shownSides(sides);
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Changes">
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Field</TableCell>
            {shown.map((side) => (
              <TableCell key={side} sx={{ fontWeight: 600 }}>
                {SIDE_LABEL[side]}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={row.path}
              data-changed={row.changed || undefined}
              sx={row.changed ? changedRow : undefined}
            >
              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                {row.field}
                {row.changed && <ChangedLabel />}
              </TableCell>
              {shown.map((side) => (
                <TableCell key={side} sx={{ ...wrapping, verticalAlign: 'top' }}>
                  {row[side] || EMPTY_CELL}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function ChangeList({ rows, sides }: { rows: readonly DiffRow[]; sides: Sides }) {
  const shown = shownSides(sides);
  return (
    <Stack component="ul" aria-label="Changes" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {rows.map((row) => (
        <Box
          component="li"
          key={row.path}
          data-changed={row.changed || undefined}
          sx={[
            { border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 },
            (theme: Theme) => (row.changed ? { bgcolor: alpha(theme.palette.warning.main, 0.1) } : {}),
          ]}
        >
          <Typography sx={{ fontWeight: 600 }}>
            {row.field}
            {row.changed && <ChangedLabel />}
          </Typography>
          {shown.map((side) => (
            <Typography key={side} variant="body2" sx={wrapping}>
              {shown.length > 1 && (
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {`${SIDE_LABEL[side]}: `}
                </Box>
              )}
              {row[side] || EMPTY_CELL}
            </Typography>
          ))}
        </Box>
      ))}
    </Stack>
  );
}

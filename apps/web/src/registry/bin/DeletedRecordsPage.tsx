import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { DeletedRecord, ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { failureOf } from '../../api/retry';
import { formatDateTime } from '../../ui/dates';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { TableSkeleton } from '../../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../../ui/TablePager';
import { nextSort, withKeyword } from '../../ui/tableState/tableUrl';
import { useLastRealPage, useUrlTableState } from '../../ui/tableState/useUrlTableState';
import { FilterField } from '../list/FilterField';
import { listPath, REGISTRY, useBackTarget } from '../paths';
import { type BinDialogTarget, PurgeDialog, RestoreDialog } from './BinDialogs';
import { BIN_URL, type BinQuery, type BinSort, useBinQuery } from './binQueries';

const COLUMNS: { label: string; sort?: BinSort }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Deleted by' },
  { label: 'Deleted at', sort: 'deletedAt' },
];

const deleter = (record: DeletedRecord) => record.deletedBy?.username ?? 'Unknown';

/**
 * A module's recycle bin, for holders of its DELETE permission: its deleted records, who deleted
 * each and when, each restored or deleted permanently after a confirmation.
 */
export function DeletedRecordsPage({ def }: { def: ResourceDef }) {
  const table = useUrlTableState(BIN_URL);
  const { query, setQuery } = table;
  const list = useBinQuery(def, query);
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? rows.length;
  useLastRealPage(table, list.data && { rows: rows.length, total });
  const back = useBackTarget(listPath(def));
  const [restoring, setRestoring] = useState<BinDialogTarget | null>(null);
  const [purging, setPurging] = useState<BinDialogTarget | null>(null);
  const plural = def.plural.toLowerCase();
  const heading = {
    title: `Deleted ${plural}`,
    subtitle: `Restore a deleted ${def.label.toLowerCase()} with its history, or delete it permanently.`,
    back: back.to,
    backState: back.state,
    crumbs: [
      { label: 'Registry', to: REGISTRY },
      { label: def.plural, to: listPath(def) },
      { label: 'Deleted records' },
    ],
  };
  if (list.error) {
    return (
      <Box>
        <ScreenHeader {...heading} />
        <RequestError {...failureOf(list, `Failed to fetch deleted ${plural}`)} />
      </Box>
    );
  }
  if (!list.data) {
    return (
      <Box>
        <ScreenHeader {...heading} />
        <TableSkeleton label={`Loading deleted ${plural}`} columns={COLUMNS.length + 1} variant="records" />
      </Box>
    );
  }
  const target = (record: DeletedRecord): BinDialogTarget => ({
    def,
    code: record.recordCode,
    name: record.name,
  });
  const actions = (record: DeletedRecord) => (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <Button
        size="small"
        startIcon={<RestoreFromTrashIcon />}
        onClick={() => setRestoring(target(record))}
        aria-label={`Restore ${record.name}`}
      >
        Restore
      </Button>
      <Button
        size="small"
        color="error"
        startIcon={<DeleteForeverIcon />}
        onClick={() => setPurging(target(record))}
        aria-label={`Delete permanently ${record.name}`}
      >
        Delete permanently
      </Button>
    </Stack>
  );
  return (
    <Box>
      <ScreenHeader {...heading} />
      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          <FilterField
            keyword={query.keyword}
            label={`Filter deleted ${plural}`}
            onSubmit={(k) => setQuery(withKeyword(query, k))}
          />
        </Box>
        {rows.length === 0 ? (
          <Typography sx={{ py: 6, textAlign: 'center', color: 'text.secondary' }}>
            {query.keyword
              ? `No deleted ${def.label.toLowerCase()} matches the filter`
              : `No deleted ${plural}`}
          </Typography>
        ) : (
          <>
            <BinTable
              title={heading.title}
              rows={rows}
              query={query}
              onSort={(f) => setQuery(nextSort(query, f))}
              actions={actions}
            />
            <BinCards rows={rows} actions={actions} />
          </>
        )}
        <TablePager total={total} query={query} onChange={setQuery} />
        {list.isFetching && <LoadingOverlay label={`Loading deleted ${plural}`} />}
      </Paper>
      <RestoreDialog target={restoring} onClose={() => setRestoring(null)} />
      <PurgeDialog target={purging} onClose={() => setPurging(null)} />
    </Box>
  );
}

interface RowsProps {
  rows: DeletedRecord[];
  actions(record: DeletedRecord): React.ReactNode;
}

/** From the `sm` breakpoint up: a table, sortable by name and time. */
function BinTable({
  title,
  rows,
  query,
  onSort,
  actions,
}: RowsProps & { title: string; query: BinQuery; onSort(field: BinSort): void }) {
  return (
    <TableContainer sx={{ display: { xs: 'none', sm: 'block' }, overflowX: 'auto' }}>
      <Table size="small" aria-label={title} sx={{ minWidth: 640 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((col) => (
              <TableCell
                key={col.label}
                sortDirection={query.sortField === col.sort ? query.sortValue : false}
              >
                {col.sort ? (
                  <TableSortLabel
                    active={query.sortField === col.sort}
                    direction={query.sortField === col.sort ? query.sortValue : 'asc'}
                    onClick={() => col.sort && onSort(col.sort)}
                  >
                    {col.label}
                  </TableSortLabel>
                ) : (
                  col.label
                )}
              </TableCell>
            ))}
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((record) => (
            <TableRow key={record.recordCode} hover>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {record.name}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {record.recordCode}
                </Typography>
              </TableCell>
              <TableCell>{deleter(record)}</TableCell>
              <TableCell>{formatDateTime(record.deletedAt)}</TableCell>
              <TableCell align="right">{actions(record)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Below the `sm` breakpoint: one card per deleted record, its actions under it. */
function BinCards({ rows, actions }: RowsProps) {
  return (
    <Box component="ul" sx={{ display: { xs: 'block', sm: 'none' }, listStyle: 'none', m: 0, p: 0 }}>
      {rows.map((record) => (
        <Box
          component="li"
          key={record.recordCode}
          sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{record.name}</Typography>
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
            {record.recordCode}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5, color: 'text.secondary' }}>
            Deleted by {deleter(record)}, {formatDateTime(record.deletedAt)}
          </Typography>
          <Box sx={{ mt: 1 }}>{actions(record)}</Box>
        </Box>
      ))}
    </Box>
  );
}

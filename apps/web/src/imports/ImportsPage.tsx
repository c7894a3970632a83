import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { IMPORT_MODE_LABELS, type ImportListItem } from '@wfc/contract';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { failureOf } from '../api/retry';
import { RequirePermission } from '../auth/guards';
import { formatDateTime } from '../ui/dates';
import { notify } from '../ui/notify';
import { visuallyHidden } from '../ui/paging';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadingRegion } from '../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { downloadImportErrors, useImports } from './api';
import { ANY_IMPORT_PERMISSION, importPath, moduleTitle, newImportPath } from './modules';
import { ImportStatusChip } from './StatusChip';

const number = (n: number) => n.toLocaleString();
const who = (item: ImportListItem) => item.createdBy.username ?? 'someone since deleted';

/** Pure: an import's counts in a line: what it did once committed, what it would do before. */
export function countsText(item: ImportListItem): string {
  const { counts } = item;
  if (item.status === 'checking') return `${number(item.progress.checked)} rows checked`;
  const done = item.status === 'committed';
  const parts = [
    `${number(counts.create)} ${done ? 'created' : 'to create'}`,
    `${number(counts.update)} ${done ? 'updated' : 'to update'}`,
    `${number(counts.unchanged)} unchanged`,
  ];
  if (done && counts.skipped > 0) parts.push(`${number(counts.skipped)} skipped`);
  else if (counts.errors > 0) parts.push(`${number(counts.errors)} with errors`);
  return parts.join(' · ');
}

async function downloadErrors(item: ImportListItem) {
  const outcome = await downloadImportErrors(item.importCode);
  if (!outcome.ok) notify.error(outcome.message);
}

function ErrorsButton({ item }: { item: ImportListItem }) {
  if (item.errorCount === 0) return null;
  const label = `Download the ${item.errorCount === 1 ? 'error' : `${number(item.errorCount)} errors`} of ${item.fileName}`;
  return (
    <Tooltip title="Error report (CSV)">
      <IconButton size="small" aria-label={label} onClick={() => void downloadErrors(item)}>
        <DownloadIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** Why a failed or cancelled import stopped, in the server's words. */
function EndNote({ item }: { item: ImportListItem }) {
  if (!item.message || (item.status !== 'failed' && item.status !== 'cancelled')) return null;
  return (
    <Typography
      variant="body2"
      color={item.status === 'failed' ? 'error' : 'text.secondary'}
      sx={{ mt: 0.25 }}
    >
      {item.message}
    </Typography>
  );
}

function FileLink({ item }: { item: ImportListItem }) {
  return (
    <Link
      component={RouterLink}
      to={importPath(item.importCode)}
      sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
    >
      {item.fileName}
    </Link>
  );
}

function ImportsTable({ rows }: { rows: ImportListItem[] }) {
  return (
    <TableContainer>
      <Table
        aria-label="Imports"
        sx={{ '& .MuiTableCell-root': { px: 1.5 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>File</TableCell>
            <TableCell>Module</TableCell>
            <TableCell>Rows</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>When</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Error report
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((item) => (
            <TableRow key={item.importCode} sx={{ verticalAlign: 'top' }}>
              <TableCell sx={{ minWidth: 200 }}>
                <FileLink item={item} />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
                  {IMPORT_MODE_LABELS[item.mode]}
                </Typography>
              </TableCell>
              <TableCell>{moduleTitle(item.module)}</TableCell>
              <TableCell sx={{ minWidth: 180 }}>
                <Typography variant="body2">{countsText(item)}</Typography>
                <EndNote item={item} />
              </TableCell>
              <TableCell>
                <ImportStatusChip status={item.status} />
              </TableCell>
              <TableCell>
                <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(item.createdAt)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  by {who(item)}
                </Typography>
              </TableCell>
              <TableCell align="right">
                <ErrorsButton item={item} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone each import is a block of its own. */
function ImportsList({ rows }: { rows: ImportListItem[] }) {
  return (
    <Box component="ul" aria-label="Imports" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {rows.map((item) => (
        <Box
          component="li"
          key={item.importCode}
          sx={{ px: 2, py: 1.75, '& + &': { borderTop: 1, borderColor: 'divider' } }}
        >
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
              <FileLink item={item} />
              <Typography variant="body2" color="text.secondary">
                {moduleTitle(item.module)} · {IMPORT_MODE_LABELS[item.mode]}
              </Typography>
            </Box>
            <ImportStatusChip status={item.status} />
          </Box>
          <Typography variant="body2" sx={{ mt: 0.75 }}>
            {countsText(item)}
          </Typography>
          <EndNote item={item} />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 auto' }}>
              {formatDateTime(item.createdAt)} by {who(item)}
            </Typography>
            <ErrorsButton item={item} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** Every import made in the console, the newest first, each opening where it stands. */
export default function ImportsPage() {
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const imports = useImports(paging.page, paging.limit);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  let body: React.ReactNode;
  if (imports.isPending) {
    body = (
      <LoadingRegion label="Loading the imports">
        <Skeleton variant="rounded" height={160} />
      </LoadingRegion>
    );
  } else if (imports.isError) {
    body = <RequestError {...failureOf(imports, 'Failed to fetch imports')} />;
  } else if (imports.data.rows.length === 0 && paging.page === 1) {
    body = (
      <Box sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <Typography sx={{ fontWeight: 600 }}>No imports yet</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Bring records in from a CSV or XLSX file: each list's Import button starts one.
        </Typography>
      </Box>
    );
  } else {
    body = (
      <>
        {phone ? <ImportsList rows={imports.data.rows} /> : <ImportsTable rows={imports.data.rows} />}
        <TablePager total={imports.data.total} query={paging} onChange={setPaging} />
        {imports.isFetching && imports.isPlaceholderData && <LoadingOverlay label="Loading the imports" />}
      </>
    );
  }
  return (
    <RequirePermission anyOf={ANY_IMPORT_PERMISSION}>
      <Box>
        <ScreenHeader
          title="Imports"
          subtitle="Files brought into the console, who brought them and what they did"
          actions={
            <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={newImportPath()}>
              New import
            </Button>
          }
        />
        <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
          {body}
        </Paper>
      </Box>
    </RequirePermission>
  );
}

import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatAverage, PERFORMANCE_COLUMN_TITLES, type PerformanceRow } from '@wfc/contract';
import { useState } from 'react';
import { failureOf } from '../api/retry';
import { formatDate } from '../ui/dates';
import { RequestError } from '../ui/RequestError';
import { TableSkeleton } from '../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { type HistoryPage, useHistory } from './useMyPerformance';

const AVERAGES = ['daily', 'monthly', 'yearly'] as const;
const NONE = '–';

/** Pure: the skills the page's rows name, in their column order. */
const skillsOf = (rows: readonly PerformanceRow[]) =>
  rows[0]?.skills.map((s) => ({ code: s.skillCode, title: s.title })) ?? [];

/** The employee's saved dates, newest first, a page at a time; read only. */
export function HistoryTable({ employeeCode }: { employeeCode: string }) {
  const [paging, setPaging] = useState<HistoryPage>({ page: 1, limit: 10 });
  const history = useHistory(employeeCode, paging);
  if (history.error) return <RequestError {...failureOf(history, 'Failed to fetch your scores')} />;
  if (!history.data) return <TableSkeleton label="Loading your scores" columns={6} variant="records" />;
  const rows = history.data.data ?? [];
  const total = history.data.total ?? rows.length;
  if (total === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">No scores have been recorded for you yet.</Typography>
      </Paper>
    );
  }
  const skills = skillsOf(rows);
  return (
    <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
      <TableContainer>
        <Table size="small" aria-label="My scores by date">
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              {skills.map((s) => (
                <TableCell key={s.code} align="right">
                  {s.title}
                </TableCell>
              ))}
              {AVERAGES.map((a) => (
                <TableCell key={a} align="right">
                  {PERFORMANCE_COLUMN_TITLES[a]}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.date}>
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                  {formatDate(row.date)}
                </TableCell>
                {skills.map((s) => {
                  const score = row.skills.find((c) => c.skillCode === s.code)?.score ?? null;
                  return (
                    <TableCell key={s.code} align="right">
                      {score ?? NONE}
                    </TableCell>
                  );
                })}
                {AVERAGES.map((a) => (
                  <TableCell key={a} align="right" sx={{ fontWeight: a === 'daily' ? 600 : undefined }}>
                    {formatAverage(row.total[a]) || NONE}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager total={total} query={paging} onChange={setPaging} />
      {history.isPlaceholderData && (
        <Box>
          <LoadingOverlay label="Loading your scores" />
        </Box>
      )}
    </Paper>
  );
}

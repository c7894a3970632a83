import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../api/client';
import { readRange } from '../performance/insights/ranges';
import { todayIso } from '../performance/query';
import { PageHeading } from '../ui/PageHeading';
import { Spinner } from '../ui/Spinner';
import { Averages } from './Averages';
import { useSelfService } from './access';
import { HistoryTable } from './HistoryTable';
import { fetchWholeHistory, historyCsv, MY_PERFORMANCE_CSV, saveCsv } from './historyCsv';
import { MyTrend } from './MyTrend';

function Heading({ id, children }: { id: string; children: string }) {
  return (
    <Typography id={id} variant="h3" component="h2" sx={{ mt: { xs: 3, md: 4 }, mb: 1.5 }}>
      {children}
    </Typography>
  );
}

/** The whole history as a CSV file, made here from the history call's pages. */
function DownloadButton({ employeeCode }: { employeeCode: string }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      saveCsv(historyCsv(await fetchWholeHistory(employeeCode)), MY_PERFORMANCE_CSV);
    } catch (err) {
      setFailure(errorMessage(err, 'Failed to export your scores'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 0.5 }}>
      <Button
        variant="outlined"
        onClick={() => void download()}
        disabled={busy}
        startIcon={busy ? <Spinner label="Preparing the file" /> : <DownloadIcon />}
      >
        Download CSV
      </Button>
      {failure && (
        <Typography variant="caption" color="error" role="alert">
          {failure}
        </Typography>
      )}
    </Box>
  );
}

/** The signed-in employee's own scores: averages, trend and skill means, and every date, read only. */
export default function MyPerformancePage() {
  const { employee } = useSelfService();
  const employeeCode = employee?.employeeCode ?? '';
  const today = useMemo(() => todayIso(), []);
  const [params, setParams] = useSearchParams();
  const range = readRange(params, today);
  return (
    <Box>
      <PageHeading
        title="My performance"
        subtitle="Your scores as recorded in the Performance Snapshot."
        actions={<DownloadButton employeeCode={employeeCode} />}
      />
      <Averages employeeCode={employeeCode} today={today} />
      <Box component="section" aria-labelledby="my-trend">
        <Heading id="my-trend">Trend and skills</Heading>
        <MyTrend
          employeeCode={employeeCode}
          range={range}
          today={today}
          onRange={(next) =>
            setParams(new URLSearchParams({ from: next.from, to: next.to }), { replace: true })
          }
        />
      </Box>
      <Box component="section" aria-labelledby="my-scores">
        <Heading id="my-scores">Scores by date</Heading>
        <HistoryTable employeeCode={employeeCode} />
      </Box>
    </Box>
  );
}

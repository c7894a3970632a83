import Typography from '@mui/material/Typography';

export default function PerformancePage() {
  return (
    <Typography variant="h4" component="h1">
      Performance Snapshot
    </Typography>
  );
}

import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';

/** React Router numbers its history entries; index 0 means there is nothing of ours to go back to. */
const hasHistory = () => ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

export function AccessDeniedPage() {
  const navigate = useNavigate();
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        maxWidth: 560,
        mx: 'auto',
        py: { xs: 2, md: 4 },
      }}
    >
      <Box
        component="img"
        src={`${import.meta.env.BASE_URL}access-denied.svg`}
        alt="A locked padlock on a shield"
        width={240}
        height={200}
        sx={{ width: { xs: 200, md: 240 }, height: 'auto', mb: 3 }}
      />
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        Access Denied
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, fontSize: '1.05rem' }}>
        You do not have permission to access this page. Please reach out to the system administrator if you
        need access.
      </Typography>
      <Button
        variant="contained"
        size="large"
        startIcon={<ArrowBackIcon />}
        onClick={() => (hasHistory() ? navigate(-1) : navigate('/', { replace: true }))}
      >
        Go Back
      </Button>
    </Box>
  );
}

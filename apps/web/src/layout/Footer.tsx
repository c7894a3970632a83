import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { COMPANY_NAME, COPYRIGHT_YEAR, VENDOR_NAME } from '../env';

export function Footer() {
  return (
    <Box
      component="footer"
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', mt: 'auto' }}
    >
      <Container
        maxWidth="xl"
        sx={{
          py: 2.5,
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 0.5,
          textAlign: 'center',
        }}
      >
        <Typography variant="body2" color="text.secondary">
          © {COPYRIGHT_YEAR} {COMPANY_NAME}. All rights reserved.
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Powered by{' '}
          <Box component="span" sx={{ fontWeight: 600, color: 'text.primary' }}>
            {VENDOR_NAME}
          </Box>
        </Typography>
      </Container>
    </Box>
  );
}

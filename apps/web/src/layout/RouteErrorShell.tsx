import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { RouteErrorPage } from '../ui/RouteErrorPage';
import { Footer } from './Footer';
import { Header } from './Header';

/**
 * The root route's errorElement: an error above every screen (in the shell itself) still shows
 * inside the header and footer, never React Router's bare default page.
 */
export function RouteErrorShell() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <Header />
      <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Container maxWidth="xl" sx={{ py: { xs: 3, md: 5 } }}>
          <RouteErrorPage />
        </Container>
      </Box>
      <Footer />
    </Box>
  );
}

import { CacheProvider, type EmotionCache } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../auth/auth';
import { theme } from '../theme';
import { Toasts } from '../ui/Toasts';

/** Everything a screen relies on besides the router; tests render screens inside it too. */
export function AppProviders({
  emotionCache,
  queryClient,
  children,
}: {
  emotionCache: EmotionCache;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <CacheProvider value={emotionCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <AuthProvider>{children}</AuthProvider>
        </QueryClientProvider>
        <Toasts />
      </ThemeProvider>
    </CacheProvider>
  );
}

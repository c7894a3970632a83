import { CacheProvider, type EmotionCache } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../auth/auth';
import { COLOR_MODE_STORAGE_KEY, COLOR_SCHEME_STORAGE_KEY, theme } from '../theme';
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
      {/*
        Light or dark follows the system setting until the user picks one in the header; the pick
        is kept under COLOR_MODE_STORAGE_KEY, which public/color-scheme-v1.js reads before the
        first paint. noSsr reads it in the first render; forceThemeRerender gives code that reads
        `theme.palette` (charts, react-select) the colours of the scheme on screen. No
        disableTransitionOnChange: the style tag it adds carries no CSP nonce.
      */}
      <ThemeProvider
        theme={theme}
        defaultMode="system"
        modeStorageKey={COLOR_MODE_STORAGE_KEY}
        colorSchemeStorageKey={COLOR_SCHEME_STORAGE_KEY}
        forceThemeRerender
        noSsr
      >
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          <AuthProvider>{children}</AuthProvider>
        </QueryClientProvider>
        <Toasts />
      </ThemeProvider>
    </CacheProvider>
  );
}

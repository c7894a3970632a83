import HomeIcon from '@mui/icons-material/HomeOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReportIcon from '@mui/icons-material/ReportProblemOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { CentredPage } from './CentredPage';
import { PageLoader } from './PageLoader';

/**
 * What browsers say when a page's code could not be fetched: after a new deployment the old chunk
 * names are gone, or the server cannot be reached (Chromium, Firefox, Safari, Vite's preloader).
 */
const CHUNK_LOAD_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_FAILURE.test(error.message);
}

/** When the page last reloaded itself for a missing chunk (ms since the epoch), for this tab. */
export const CHUNK_RELOAD_KEY = 'wfc-chunk-reload';
/** A second failure this soon after reloading means reloading does not help: the error shows. */
const RELOAD_AGAIN_AFTER_MS = 60_000;

function readReloadedAt(): number {
  try {
    return Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)) || 0;
  } catch {
    return Date.now();
  }
}

/** Whether a missing chunk may still reload the page: once, never in a loop. */
export function mayReloadForChunk(now = Date.now()): boolean {
  return now - readReloadedAt() > RELOAD_AGAIN_AFTER_MS;
}

function reloadForChunk() {
  try {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    // Without storage there is no guard against a loop: no reload.
    return;
  }
  window.location.reload();
}

/** Words for the error: a chunk that would not load, an HTTP-like route error, or anything thrown. */
function describe(error: unknown): { title: string; text: string; detail?: string } {
  if (isChunkLoadError(error)) {
    return {
      title: 'This page could not be loaded',
      text: 'The console may have just been updated, or the server cannot be reached. Check your connection, then retry.',
      detail: (error as Error).message,
    };
  }
  if (isRouteErrorResponse(error)) {
    return {
      title: 'This page could not be shown',
      text: 'Retry, or go back to the home page.',
      detail: `${error.status} ${error.statusText}`.trim(),
    };
  }
  return {
    title: 'Something went wrong on this page',
    text: 'The error has been logged in the browser console. Retry, or go back to the home page.',
    detail: error instanceof Error ? error.message : undefined,
  };
}

/**
 * A route's errorElement: what went wrong, Retry (loads the page again, its code included) and
 * Home, inside the app's header and footer. A page whose code failed to load first reloads the
 * whole page once, which fetches the current deployment's chunk names.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const reloading = isChunkLoadError(error) && mayReloadForChunk();
  useEffect(() => {
    if (reloading) reloadForChunk();
    else console.error('Route error', error);
  }, [reloading, error]);
  if (reloading) return <PageLoader label="Reloading" />;
  const { title, text, detail } = describe(error);
  return (
    <CentredPage
      picture={<ReportIcon aria-hidden="true" sx={{ fontSize: 72, color: 'error.main', mb: 2 }} />}
      title={title}
      maxWidth={600}
    >
      <Typography color="text.secondary" sx={{ mb: detail ? 1.5 : 4, fontSize: '1.05rem' }}>
        {text}
      </Typography>
      {detail && (
        <Typography
          component="code"
          variant="body2"
          color="text.secondary"
          sx={{ mb: 4, px: 1.5, py: 0.75, borderRadius: 1, bgcolor: 'action.hover', wordBreak: 'break-word' }}
        >
          {detail}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', justifyContent: 'center' }}>
        <Button
          variant="contained"
          size="large"
          startIcon={<RefreshIcon />}
          onClick={() => window.location.reload()}
        >
          Retry
        </Button>
        {/* A full load: after a deployment, the home page's own code may have a new name too. */}
        <Button
          component="a"
          href={import.meta.env.BASE_URL}
          variant="outlined"
          size="large"
          startIcon={<HomeIcon />}
        >
          Home
        </Button>
      </Box>
    </CentredPage>
  );
}

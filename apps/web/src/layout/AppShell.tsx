import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate, useNavigation, useNavigationType } from 'react-router';
import { onApiStatus } from '../api/client';
import {
  ACCESS_DENIED_PATH,
  type AccessDeniedState,
  forgetPagesSeen,
  notePageSeen,
} from '../auth/accessDenied';
import { useAuth } from '../auth/auth';
import { SessionRecovery, useDiscardingScreen } from '../auth/SessionRecovery';
import { PageLoader } from '../ui/PageLoader';
import { Footer } from './Footer';
import { Header } from './Header';
import { scrollToHash } from './scroll';
import { shellScreenTitle, withAppName } from './shellTitles';

// The modules' definitions carry every Zod schema: the side navigation stays out of the sign-in
// page's bundle.
const SideNav = lazy(() => import('./SideNav'));

/**
 * The sign-in calls: their 403 (a disabled user) is no missing permission but the sign-in's own
 * answer, which the sign-in page or dialog shows where it was given.
 */
const SIGN_IN_CALLS: ReadonlySet<string> = new Set(['login', 'VerifyMfa']);

/**
 * Any 403 from any other call means the role lacks a permission: show the access-denied page, in
 * place of the page that asked (which it is told, so as never to go back to it).
 */
function useForbiddenRedirect() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = useRef('');
  here.current = `${pathname}${search}${hash}`;
  useEffect(
    () =>
      onApiStatus((status, call) => {
        if (status !== 403 || SIGN_IN_CALLS.has(call.path) || here.current.startsWith(ACCESS_DENIED_PATH))
          return;
        const state: AccessDeniedState = { refused: here.current };
        navigate(ACCESS_DENIED_PATH, { replace: true, state });
      }),
    [navigate],
  );
}

/**
 * Cached answers belong to the user who fetched them; none may outlive a sign-out, nor be shown
 * to another user signed in meanwhile (in another tab, or in the sign-in dialog).
 */
function useForgetDataOnSignOut() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const userCode = user?.userCode ?? null;
  const previous = useRef(userCode);
  useEffect(() => {
    if (!userCode || userCode !== previous.current) {
      queryClient.clear();
      forgetPagesSeen();
    }
    previous.current = userCode;
  }, [userCode, queryClient]);
}

function useScreenChrome() {
  const { pathname, search, hash } = useLocation();
  const navigationType = useNavigationType();
  // Where Access Denied's Go Back may return (a page that then refuses is struck off again).
  useEffect(() => {
    notePageSeen(`${pathname}${search}${hash}`);
  }, [pathname, search, hash]);
  useEffect(() => {
    const title = shellScreenTitle(pathname);
    if (title !== undefined) {
      document.title = withAppName(title);
      return;
    }
    // Registry module screens are named from the resource definitions, which stay out of the
    // entry chunk; the registry route patcher has already started fetching them.
    let current = true;
    // Their code failing to load is the route's to report (its error page); the title stays.
    import('./titles').then(
      ({ documentTitle }) => {
        if (current) document.title = documentTitle(pathname);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [pathname]);
  // A new screen or hash starts at its top or its target; a changed query string (a table's next
  // page) keeps the position, and back/forward keep the browser's own scroll restoration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input.
  useEffect(() => {
    if (navigationType !== 'POP') scrollToHash(hash);
  }, [pathname, hash, navigationType]);
}

function SkipLink() {
  return (
    <Box
      component="a"
      href="#main-content"
      sx={{
        position: 'absolute',
        left: 16,
        top: -64,
        zIndex: (t) => t.zIndex.tooltip,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        boxShadow: 3,
        fontWeight: 600,
        '&:focus': { top: 12 },
      }}
    >
      Skip to main content
    </Box>
  );
}

/** What the shell opens over every screen: the search across modules, loaded on first use. */
export type SearchDialog = ComponentType<{ open: boolean; onClose: () => void }>;

export function AppShell({ search: Search }: { search: SearchDialog }) {
  useForbiddenRedirect();
  useForgetDataOnSignOut();
  useScreenChrome();
  const navigation = useNavigation();
  // While another user's sign-in discards the screen, it is taken away first: its drafts and its
  // guards against leaving go with it, and the app then goes home.
  const discarding = useDiscardingScreen();
  const { isAuthenticated } = useAuth();
  const [modulesOpen, setModulesOpen] = useState(false);
  const closeModules = useCallback(() => setModulesOpen(false), []);
  const [searchOpen, setSearchOpen] = useState(false);
  // Mounted once asked for, then kept: its chunk is fetched no earlier, and reopening is instant.
  const [searchAsked, setSearchAsked] = useState(false);
  const openSearch = useCallback(() => {
    setSearchAsked(true);
    setSearchOpen(true);
  }, []);
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Header
        actions={{ modulesOpen, onOpenModules: () => setModulesOpen(true), onOpenSearch: openSearch }}
      />
      {navigation.state === 'loading' && (
        <LinearProgress
          aria-label="Loading page"
          sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (t) => t.zIndex.appBar + 1 }}
        />
      )}
      <Box sx={{ flex: 1, display: 'flex' }}>
        {isAuthenticated && (
          <Suspense fallback={null}>
            <SideNav open={modulesOpen} onClose={closeModules} />
          </Suspense>
        )}
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
            <Container maxWidth="xl" sx={{ py: { xs: 3, md: 5 } }}>
              <Suspense fallback={<PageLoader />}>{discarding ? <PageLoader /> : <Outlet />}</Suspense>
            </Container>
          </Box>
          <Footer />
        </Box>
      </Box>
      <SessionRecovery />
      {isAuthenticated && searchAsked && (
        <Suspense fallback={null}>
          <Search open={searchOpen} onClose={() => setSearchOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
}

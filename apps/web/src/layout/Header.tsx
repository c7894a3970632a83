import CloseIcon from '@mui/icons-material/Close';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useAuth, useCan } from '../auth/auth';
import { useSignOut } from '../auth/useSignOut';
import { SELF_SERVICE_SCREENS, type SelfServiceScreen, useSelfService } from '../self-service/access';
import { ColorModeSwitch } from '../ui/ColorModeSwitch';
import { visuallyHidden } from '../ui/paging';
import { Spinner } from '../ui/Spinner';
import { Logo } from './Logo';
import { scrollToHash } from './scroll';

/** The sections; one that needs a permission is shown only to those who may open it. */
export const MENU_ITEMS: readonly { label: string; to: string; permission?: string }[] = [
  { label: 'Registry', to: '/registry' },
  { label: 'Performance Snapshot', to: '/performance-snapshot', permission: 'VIEW_PERFORMANCES' },
  { label: 'Integrations', to: '/integrations', permission: 'MANAGE_INTEGRATIONS' },
];

/** After the sections: the signed-in employee's own screens, shown to those who may open them. */
const SELF_SERVICE_ORDER: readonly SelfServiceScreen[] = ['profile', 'performance'];

const MENU_ID = 'primary-menu';

// Shown to a signed-in user only: kept out of the sign-in page's bundle.
const SearchButton = lazy(() => import('./HeaderTools').then((m) => ({ default: m.SearchButton })));
const ModulesButton = lazy(() => import('./HeaderTools').then((m) => ({ default: m.ModulesButton })));

function MenuLinks({ vertical, onNavigate }: { vertical: boolean; onNavigate: () => void }) {
  const can = useCan();
  const self = useSelfService();
  const items = [
    ...MENU_ITEMS.filter((item) => !item.permission || can(item.permission)),
    ...SELF_SERVICE_ORDER.filter((s) => self.can(s)).map((s) => ({
      label: SELF_SERVICE_SCREENS[s].label,
      to: SELF_SERVICE_SCREENS[s].path,
    })),
  ];
  return (
    <Box
      component="ul"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'flex',
        flexDirection: vertical ? 'column' : 'row',
        gap: vertical ? 0.5 : 1,
      }}
    >
      {items.map((item) => (
        <li key={item.to}>
          <Button
            component={NavLink}
            to={item.to}
            onClick={onNavigate}
            color="inherit"
            fullWidth={vertical}
            sx={(theme) => ({
              justifyContent: vertical ? 'flex-start' : 'center',
              whiteSpace: 'nowrap',
              px: 2,
              py: 1,
              color: 'text.primary',
              position: 'relative',
              '&.active': {
                color: theme.vars.palette.brand.text,
                bgcolor: vertical ? theme.alpha(theme.vars.palette.brand.main, 0.08) : 'transparent',
              },
              '&.active::after': vertical
                ? undefined
                : {
                    content: '""',
                    position: 'absolute',
                    left: 16,
                    right: 16,
                    bottom: -13,
                    height: 3,
                    borderRadius: 3,
                    bgcolor: theme.vars.palette.brand.main,
                  },
            })}
          >
            {item.label}
          </Button>
        </li>
      ))}
    </Box>
  );
}

function SignOutButton({ fullWidth }: { fullWidth: boolean }) {
  const { signOut, signingOut } = useSignOut();
  return (
    <Button
      variant="outlined"
      color="primary"
      onClick={() => signOut()}
      disabled={signingOut}
      fullWidth={fullWidth}
      startIcon={signingOut ? <Spinner label="Signing out" /> : <LogoutIcon />}
    >
      {signingOut ? 'Signing out' : 'Sign Out'}
    </Button>
  );
}

/** The signed-in user's name, which opens My account. */
function UserBadge() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Box
      component={NavLink}
      to="/account"
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minWidth: 0,
        color: 'inherit',
        textDecoration: 'none',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        '&:hover, &.active': { bgcolor: theme.alpha(theme.vars.palette.brand.main, 0.08) },
      })}
    >
      <Avatar
        aria-hidden="true"
        sx={(theme) => ({
          width: 32,
          height: 32,
          bgcolor: theme.alpha(theme.vars.palette.brand.main, 0.12),
          color: theme.vars.palette.brand.text,
          fontSize: 15,
        })}
      >
        {user.username.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ minWidth: 0, lineHeight: 1.2 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
          {/* The link's name starts with where it goes; what is seen stays part of it. */}
          <Box component="span" sx={visuallyHidden}>
            My account:{' '}
          </Box>
          {user.username}
        </Typography>
        {user.role && (
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {user.role.roleName}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/** What the shell around the header opens from it: the modules drawer and the search. */
export interface HeaderActions {
  modulesOpen: boolean;
  onOpenModules: () => void;
  onOpenSearch: () => void;
}

export function Header({ actions }: { actions?: HeaderActions }) {
  const { isAuthenticated } = useAuth();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  // The search reads as a field only where the menu's four entries (a team lead's) leave room.
  const roomy = useMediaQuery(theme.breakpoints.up('xl'), { noSsr: true });
  const phone = !useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [open, setOpen] = useState(false);
  const location = useLocation();

  // The collapsed menu closes once the user has gone somewhere.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation by design.
  useEffect(() => setOpen(false), [location.key]);

  // Following a header link to the page already shown changes nothing in the URL, so the
  // scroll (to the hash target or the top) is also triggered by the click itself.
  const onNavigate = () => {
    setOpen(false);
    requestAnimationFrame(() => scrollToHash(window.location.hash));
  };

  return (
    <AppBar
      position="sticky"
      color="inherit"
      sx={(theme) => ({
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: theme.alpha(theme.vars.palette.background.paper, 0.96),
      })}
    >
      <Container maxWidth="xl">
        {/* On a 390 px phone the Modules, search, theme and menu buttons fit beside the logo only without gaps. */}
        <Toolbar disableGutters sx={{ minHeight: { xs: 64 }, gap: { xs: 0, sm: 3 } }}>
          {isAuthenticated && actions && phone && (
            <Suspense fallback={null}>
              <ModulesButton open={actions.modulesOpen} onOpen={actions.onOpenModules} />
            </Suspense>
          )}
          <Logo onNavigate={onNavigate} />
          {isAuthenticated && wide && (
            <>
              <Box component="nav" aria-label="Main" sx={{ flexGrow: 1 }}>
                <MenuLinks vertical={false} onNavigate={onNavigate} />
              </Box>
              {actions && (
                <Suspense fallback={null}>
                  <SearchButton onOpen={actions.onOpenSearch} full={roomy} />
                </Suspense>
              )}
              <ColorModeSwitch />
              <UserBadge />
              <SignOutButton fullWidth={false} />
            </>
          )}
          {!isAuthenticated && (
            <>
              <Box sx={{ flexGrow: 1 }} />
              <ColorModeSwitch edge="end" />
            </>
          )}
          {isAuthenticated && !wide && (
            <>
              <Box sx={{ flexGrow: 1 }} />
              {actions && (
                <Suspense fallback={null}>
                  <SearchButton onOpen={actions.onOpenSearch} full={false} />
                </Suspense>
              )}
              <ColorModeSwitch />
              <IconButton
                edge="end"
                aria-label={open ? 'Close menu' : 'Open menu'}
                aria-expanded={open}
                aria-controls={MENU_ID}
                onClick={() => setOpen((v) => !v)}
              >
                {open ? <CloseIcon /> : <MenuIcon />}
              </IconButton>
            </>
          )}
        </Toolbar>
        {isAuthenticated && !wide && (
          <Collapse in={open} id={MENU_ID} unmountOnExit>
            <Box sx={{ pb: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
              <Divider />
              <Box component="nav" aria-label="Main">
                <MenuLinks vertical onNavigate={onNavigate} />
              </Box>
              <Divider />
              <UserBadge />
              <SignOutButton fullWidth />
            </Box>
          </Collapse>
        )}
      </Container>
    </AppBar>
  );
}

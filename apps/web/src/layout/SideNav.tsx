import type { SvgIconComponent } from '@mui/icons-material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import WebhookOutlinedIcon from '@mui/icons-material/WebhookOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCan } from '../auth/auth';
import { useVisibleModules } from '../auth/useVisibleModules';
import { IMPORTS_PATH, useOffersImports } from '../imports/modules';
import { MODULE_ICONS } from '../ui/moduleIcons';
import { visuallyHidden } from '../ui/paging';
import { MENU_ITEMS } from './Header';
import { SIDE_NAV_DRAWER_ID } from './HeaderTools';

export const SIDE_NAV_STORAGE_KEY = 'wfc-side-nav';
const LIST_ID = 'side-nav-list';
const WIDE = 264;
const NARROW = 64;

/**
 * The header's sections the side nav lists after the modules, each under its heading with its
 * icon, and its screens when the section has screens of its own; the registry itself is not one
 * of them, its modules being listed one by one.
 */
const SECTIONS: Readonly<Record<string, { Icon: SvgIconComponent; heading: string; screens?: NavScreen[] }>> =
  {
    '/performance-snapshot': { Icon: InsightsOutlinedIcon, heading: 'Performance' },
    '/integrations': {
      Icon: HubOutlinedIcon,
      heading: 'Integrations',
      screens: [
        { label: 'API tokens', to: '/integrations/api-tokens', Icon: KeyOutlinedIcon },
        { label: 'Webhooks', to: '/integrations/webhooks', Icon: WebhookOutlinedIcon },
      ],
    },
  };

interface NavScreen {
  label: string;
  to: string;
  /** Its own icon, where the section lists more than one screen. */
  Icon?: SvgIconComponent;
}

interface NavEntry {
  /** The list it is shown in. */
  heading: string;
  label: string;
  to: string;
  Icon: SvgIconComponent;
  /** The first path segments that belong to it: a module's list, and its records' screens. */
  active: (segments: readonly string[]) => boolean;
}

interface Entries {
  modules: NavEntry[];
  sections: NavEntry[];
}

function useEntries(): Entries {
  const can = useCan();
  // The paths the Modules screen's cards link to; the layout does not reach into the registry.
  const modules = useVisibleModules().map((r) => ({
    heading: 'Registry',
    label: r.moduleTitle,
    to: `/registry/${r.listSegment}`,
    Icon: MODULE_ICONS[r.key],
    active: ([first, second]: readonly string[]) =>
      first === 'registry' && (second === r.listSegment || second === r.itemSegment),
  }));
  const sections = MENU_ITEMS.flatMap((item) => {
    const section = SECTIONS[item.to];
    if (!section || (item.permission && !can(item.permission))) return [];
    if (section.screens) {
      return section.screens.map((screen) => ({
        heading: section.heading,
        label: screen.label,
        to: screen.to,
        Icon: screen.Icon ?? section.Icon,
        active: (segments: readonly string[]) => `/${segments.join('/')}/`.startsWith(`${screen.to}/`),
      }));
    }
    return [
      {
        heading: section.heading,
        label: item.label,
        to: item.to,
        Icon: section.Icon,
        active: ([first]: readonly string[]) => `/${first}` === item.to,
      },
    ];
  });
  // Imports, for a user who may bring records into a module they see: a section of its own.
  const imports: NavEntry[] = useOffersImports()
    ? [
        {
          heading: 'Data',
          label: 'Imports',
          to: IMPORTS_PATH,
          Icon: UploadFileOutlinedIcon,
          active: ([first]: readonly string[]) => `/${first}` === IMPORTS_PATH,
        },
      ]
    : [];
  return { modules, sections: [...sections, ...imports] };
}

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDE_NAV_STORAGE_KEY) === 'collapsed';
  } catch {
    // Storage can be refused (private modes, policies): the navigation then starts expanded.
    return false;
  }
}

/** Whether the permanent navigation shows icons alone, remembered in this browser. */
function useCollapsed() {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = useCallback(() => {
    setCollapsed((was) => {
      try {
        window.localStorage.setItem(SIDE_NAV_STORAGE_KEY, was ? 'expanded' : 'collapsed');
      } catch {
        // Not remembered, but still applied for this visit.
      }
      return !was;
    });
  }, []);
  return [collapsed, toggle] as const;
}

function EntryLink({
  entry,
  collapsed,
  segments,
}: {
  entry: NavEntry;
  collapsed: boolean;
  segments: readonly string[];
}) {
  const active = entry.active(segments);
  const link = (
    <ListItemButton
      component={RouterLink}
      to={entry.to}
      selected={active}
      aria-current={active ? 'page' : undefined}
      sx={(theme) => ({
        minHeight: 40,
        borderRadius: 1,
        px: collapsed ? 1.25 : 1.5,
        justifyContent: collapsed ? 'center' : 'flex-start',
        '&.Mui-selected, &.Mui-selected:hover': {
          bgcolor: theme.alpha(theme.vars.palette.brand.main, 0.12),
          color: theme.vars.palette.brand.text,
        },
        '&.Mui-selected .MuiListItemIcon-root': { color: theme.vars.palette.brand.text },
      })}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36, color: 'text.secondary' }}>
        <entry.Icon fontSize="small" />
      </ListItemIcon>
      <ListItemText
        primary={entry.label}
        slotProps={{ primary: { noWrap: true, sx: { fontSize: 14, fontWeight: active ? 600 : 500 } } }}
        sx={collapsed ? visuallyHidden : { my: 0 }}
      />
    </ListItemButton>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip title={entry.label} placement="right" describeChild>
          {link}
        </Tooltip>
      ) : (
        link
      )}
    </li>
  );
}

/** Pure: the entries in lists by heading, in the order the headings first come. */
function groupedByHeading(entries: readonly NavEntry[]): NavEntry[][] {
  const groups = new Map<string, NavEntry[]>();
  for (const e of entries) groups.set(e.heading, [...(groups.get(e.heading) ?? []), e]);
  return [...groups.values()];
}

function NavLists({ entries: { modules, sections }, collapsed }: { entries: Entries; collapsed: boolean }) {
  const { pathname } = useLocation();
  const segments = pathname.split('/').slice(1);
  const list = (items: NavEntry[], heading: string) => (
    <List
      dense
      disablePadding
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.25, px: 1 }}
      subheader={
        collapsed ? undefined : (
          <ListSubheader
            disableSticky
            sx={{ bgcolor: 'transparent', lineHeight: '32px', px: 1.5, fontSize: 12, letterSpacing: 0.4 }}
          >
            {heading}
          </ListSubheader>
        )
      }
    >
      {items.map((e) => (
        <EntryLink key={e.to} entry={e} collapsed={collapsed} segments={segments} />
      ))}
    </List>
  );
  return (
    <Box id={LIST_ID} sx={{ display: 'flex', flexDirection: 'column', gap: 1, py: 1 }}>
      {[modules, ...groupedByHeading(sections)]
        .filter((group) => group.length > 0)
        .map((group, i) => (
          <Fragment key={group[0]?.heading}>
            {i > 0 && <Divider sx={{ mx: 2 }} />}
            {list(group, group[0]?.heading ?? '')}
          </Fragment>
        ))}
    </Box>
  );
}

/**
 * The modules the signed-in user may view, beside every screen. From `md` up a column that can
 * be narrowed to icons (remembered); below, a drawer the header's Modules button opens.
 */
export default function SideNav({ open, onClose }: { open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [collapsed, toggle] = useCollapsed();
  const location = useLocation();
  const entries = useEntries();

  // The drawer closes once the user has gone somewhere; not when this chunk arrives, which can be
  // after the drawer was asked for.
  const shownAt = useRef(location.key);
  useEffect(() => {
    if (location.key === shownAt.current) return;
    shownAt.current = location.key;
    onClose();
  }, [location.key, onClose]);

  // A role of self-service permissions alone has nothing to list: the header has its screens.
  if (entries.modules.length + entries.sections.length === 0) return null;
  if (!wide) {
    return (
      <Drawer
        open={open}
        onClose={onClose}
        id={SIDE_NAV_DRAWER_ID}
        slotProps={{ paper: { sx: { width: WIDE + 32, maxWidth: '85vw' } } }}
      >
        <Box component="nav" aria-label="Modules" sx={{ pt: 1 }}>
          <NavLists entries={entries} collapsed={false} />
        </Box>
      </Drawer>
    );
  }
  return (
    <Box
      component="nav"
      aria-label="Modules"
      sx={{
        flexShrink: 0,
        width: collapsed ? NARROW : WIDE,
        transition: theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        position: 'sticky',
        top: 64,
        alignSelf: 'flex-start',
        height: 'calc(100dvh - 64px)',
        display: 'flex',
        flexDirection: 'column',
        overflowX: 'hidden',
      }}
    >
      <Box sx={{ flex: 1, overflowY: 'auto' }}>
        <NavLists entries={entries} collapsed={collapsed} />
      </Box>
      <Divider />
      <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 1 }}>
        <IconButton
          size="small"
          aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
          title={collapsed ? 'Expand navigation' : 'Collapse navigation'}
          aria-expanded={!collapsed}
          aria-controls={LIST_ID}
          onClick={toggle}
          sx={{ color: 'text.secondary' }}
        >
          {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
        </IconButton>
      </Box>
    </Box>
  );
}

import AppsIcon from '@mui/icons-material/Apps';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { useEffect } from 'react';
import { KeyCap } from '../ui/KeyCap';

/** The side navigation's drawer on phones, which the header's Modules button opens. */
export const SIDE_NAV_DRAWER_ID = 'side-nav-drawer';

/** Opens the side navigation's drawer on a phone. */
export function ModulesButton({ open, onOpen }: { open: boolean; onOpen: () => void }) {
  return (
    <IconButton
      edge="start"
      aria-label="Modules"
      aria-expanded={open}
      aria-controls={SIDE_NAV_DRAWER_ID}
      onClick={onOpen}
    >
      <AppsIcon />
    </IconButton>
  );
}

/** Ctrl+K (⌘K on a Mac) opens the search from anywhere, a text field included. */
function useSearchShortcut(open: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/** How the search is opened from the keyboard, as this platform writes it. */
const SEARCH_SHORTCUT = /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘K' : 'Ctrl K';

/** Opens the search across modules; on wide screens it reads as a search field with its shortcut. */
export function SearchButton({ onOpen, full }: { onOpen: () => void; full: boolean }) {
  useSearchShortcut(onOpen);
  const label = `Search records (${SEARCH_SHORTCUT})`;
  if (!full) {
    return (
      <IconButton
        aria-label="Search records"
        aria-keyshortcuts="Control+K Meta+K"
        title={label}
        onClick={onOpen}
      >
        <SearchIcon />
      </IconButton>
    );
  }
  return (
    <Button
      onClick={onOpen}
      color="inherit"
      aria-keyshortcuts="Control+K Meta+K"
      startIcon={<SearchIcon />}
      sx={{
        color: 'text.secondary',
        border: 1,
        borderColor: 'divider',
        bgcolor: 'action.hover',
        px: 1.5,
        minWidth: 200,
        justifyContent: 'flex-start',
        fontWeight: 400,
      }}
    >
      <Box component="span" sx={{ flex: 1, textAlign: 'left' }}>
        Search records
      </Box>
      <KeyCap sx={{ ml: 1.5, lineHeight: '20px' }}>{SEARCH_SHORTCUT}</KeyCap>
    </Button>
  );
}

import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ResourceDef, SEARCH_ENDPOINT, type SearchAnswer, type SearchResult } from '@wfc/contract';
import { Command } from 'cmdk';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, errorMessage } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { useVisibleModules } from '../../auth/useVisibleModules';
import { KeyCap } from '../../ui/KeyCap';
import { MODULE_ICONS } from '../../ui/moduleIcons';
import { viewPath } from '../paths';

/** Typing pauses this long before the server is asked, so a word is one request, not one a key. */
const DEBOUNCE_MS = 200;

function useDebounced(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

interface Group {
  def: ResourceDef;
  results: SearchResult[];
}

/** The answer's records under their modules, in the Modules screen's order. */
function grouped(modules: readonly ResourceDef[], results: readonly SearchResult[]): Group[] {
  return modules.flatMap((def) => {
    const own = results.filter((r) => r.resource === def.key);
    return own.length ? [{ def, results: own }] : [];
  });
}

const itemValue = (r: SearchResult) => `${r.resource}:${r.code}`;

function Hint({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 3, textAlign: 'center' }}>
      {children}
    </Typography>
  );
}

/**
 * The search across modules: records of every module the user may view, by name, code or another
 * identifier (an employee's Employee Id), as far as the user's permissions reach. Arrow keys move
 * through the matches, Enter opens one's view screen, Escape closes.
 */
export default function SearchPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [keyword, setKeyword] = useState('');
  const asked = useDebounced(keyword.trim());
  const navigate = useNavigate();
  const modules = useVisibleModules();
  const answer = useQuery({
    queryKey: queryKeys.registry.search(asked),
    queryFn: async () => (await api.post<SearchAnswer>(SEARCH_ENDPOINT, { keyword: asked })).data,
    enabled: open && asked !== '',
    placeholderData: keepPreviousData,
  });
  const groups = asked === '' ? [] : grouped(modules, answer.data?.results ?? []);
  const settled = asked === keyword.trim() && !answer.isFetching;
  // The highlighted result; when an answer replaces the results it held, the first is highlighted,
  // so that Enter always opens one that is shown.
  const [selected, setSelected] = useState('');
  const values = groups.flatMap((g) => g.results.map(itemValue));
  const highlighted = values.includes(selected) ? selected : (values[0] ?? '');

  const choose = (def: ResourceDef, result: SearchResult) => {
    onClose();
    setKeyword('');
    navigate(viewPath(def, result.code));
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      slotProps={{
        container: { sx: { alignItems: 'flex-start' } },
        paper: {
          'aria-label': 'Search records',
          sx: { mt: { xs: 2, sm: '12vh' }, mx: { xs: 1.5, sm: 4 }, width: { xs: 'calc(100% - 24px)' } },
        },
      }}
    >
      <Box
        sx={(theme) => ({
          '[cmdk-root]': {
            display: 'flex',
            flexDirection: 'column',
            maxHeight: { xs: '80dvh', sm: '64vh' },
          },
          '[cmdk-input]': {
            flex: 1,
            border: 0,
            outline: 'none',
            bgcolor: 'transparent',
            color: 'text.primary',
            font: 'inherit',
            fontSize: 16,
            py: 2,
            '&::placeholder': { color: 'text.secondary', opacity: 1 },
          },
          '[cmdk-list]': { overflowY: 'auto', overscrollBehavior: 'contain', px: 1, pb: 1 },
          '[cmdk-group-heading]': {
            px: 1.5,
            pt: 1.5,
            pb: 0.5,
            fontSize: 12,
            fontWeight: 600,
            letterSpacing: 0.4,
            textTransform: 'uppercase',
            color: 'text.secondary',
          },
          '[cmdk-item]': {
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            px: 1.5,
            py: 1,
            borderRadius: 1,
            cursor: 'pointer',
            color: 'text.primary',
          },
          '[cmdk-item][data-selected="true"]': {
            bgcolor: theme.alpha(theme.vars.palette.brand.main, 0.12),
            color: theme.vars.palette.brand.text,
          },
        })}
      >
        <Command
          label="Search records"
          shouldFilter={false}
          loop
          value={highlighted}
          onValueChange={setSelected}
        >
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1.5,
              px: 2,
              borderBottom: 1,
              borderColor: 'divider',
            }}
          >
            <SearchIcon aria-hidden="true" sx={{ color: 'text.secondary' }} />
            <Command.Input
              autoFocus
              value={keyword}
              onValueChange={setKeyword}
              placeholder="Search by name, code or Employee Id"
              aria-label="Search records"
            />
            {/* A phone has no Escape key. */}
            <KeyCap sx={{ display: { xs: 'none', sm: 'inline' }, color: 'text.secondary' }}>Esc</KeyCap>
          </Box>
          <Box sx={{ height: 2 }}>
            {answer.isFetching && <LinearProgress aria-label="Searching" sx={{ height: 2 }} />}
          </Box>
          <Command.List label="Matching records">
            {keyword.trim() === '' && <Hint>Type a name, a code or an Employee Id</Hint>}
            {answer.isError && <Hint>{errorMessage(answer.error, 'The search failed')}</Hint>}
            {settled && asked !== '' && !answer.isError && groups.length === 0 && (
              <Hint>{`No records match “${asked}”`}</Hint>
            )}
            {groups.map(({ def, results }) => {
              const Icon = MODULE_ICONS[def.key];
              return (
                <Command.Group key={def.key} heading={def.moduleTitle}>
                  {results.map((r) => (
                    <Command.Item key={r.code} value={itemValue(r)} onSelect={() => choose(def, r)}>
                      <Icon fontSize="small" aria-hidden="true" sx={{ color: 'text.secondary' }} />
                      <Box sx={{ minWidth: 0, flex: 1 }}>
                        <Typography noWrap sx={{ fontSize: 14, fontWeight: 500 }}>
                          {r.name}
                        </Typography>
                        {r.detail && (
                          <Typography noWrap variant="caption" color="text.secondary" component="p">
                            {r.detail}
                          </Typography>
                        )}
                      </Box>
                      <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                        {def.label}
                      </Typography>
                    </Command.Item>
                  ))}
                </Command.Group>
              );
            })}
          </Command.List>
        </Command>
      </Box>
    </Dialog>
  );
}

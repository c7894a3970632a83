import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import { alpha, useTheme } from '@mui/material/styles';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ResourceDef, SELECTOR_PAGE_SIZE } from '@wfc/contract';
import { type KeyboardEvent, type UIEvent, useEffect, useMemo, useRef, useState } from 'react';
import Select, {
  components,
  type GroupBase,
  type MenuListProps,
  type MultiValue,
  type SelectInstance,
  type SingleValue,
  type StylesConfig,
} from 'react-select';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { RegistryRecord } from '../queries';
import { REQUIRED_MARK } from '../record/fields/required';
import { enterAction, rankOptions } from './optionRanking';

export interface Option {
  value: string;
  label: string;
}

/** A cascading selector's parent: options come from `endpoint` with `{[param]: value}` in the body. */
export interface SelectParent {
  endpoint: string;
  param: string;
  value: string;
}

interface BaseProps {
  source: ResourceDef;
  inputId: string;
  label: string;
  disabled?: boolean;
  parent?: SelectParent;
  /** A list query flag sent with every page (`assignable`: only what the user may give). */
  listFlag?: string;
  error?: string;
  /** Shown under the selector while there is no error. */
  help?: string;
  /** Marked as required: the asterisk on the label and `aria-required` on the input. */
  required?: boolean;
  /** Options shown but not choosable. */
  isOptionDisabled?(option: Option): boolean;
  onBlur?(): void;
}

type Props = BaseProps &
  (
    | { isMulti: true; value: Option[]; onChange(value: Option[]): void }
    | { isMulti?: false; value: Option | null; onChange(value: Option | null): void }
  );

const KEYWORD_DELAY_MS = 300;
/** Within this many pixels of the end of the menu the next page is requested. */
const BOTTOM_SLACK_PX = 40;

export function toOption(source: ResourceDef, record: RegistryRecord): Option {
  const code = String(record[source.code]);
  const name = record[source.nameField];
  return { value: code, label: typeof name === 'string' && name ? name : code };
}

async function fetchOptionsPage(
  source: ResourceDef,
  parent: SelectParent | undefined,
  listFlag: string | undefined,
  keyword: string,
  page: number,
) {
  const sortField = source.sortFields.includes(source.nameField) ? source.nameField : '_id';
  const query = {
    page,
    limit: SELECTOR_PAGE_SIZE,
    keyword,
    sortField,
    sortValue: 'asc',
    ...(listFlag ? { [listFlag]: 'true' } : {}),
  };
  const res = parent
    ? await api.post<RegistryRecord[]>(parent.endpoint, { [parent.param]: parent.value }, query)
    : await api.get<RegistryRecord[]>(source.endpoints.list, query);
  const rows = res.data ?? [];
  return { options: rows.map((r) => toOption(source, r)), total: res.total ?? rows.length };
}

/**
 * react-select reports the bottom only for wheel and touch gestures; dragging the scrollbar or
 * moving with the keyboard scrolls too, so the list itself also watches its scroll position.
 */
function MenuList(props: MenuListProps<Option, boolean, GroupBase<Option>>) {
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - BOTTOM_SLACK_PX) {
      props.selectProps.onMenuScrollToBottom?.(e.nativeEvent as unknown as WheelEvent);
    }
  };
  return <components.MenuList {...props} innerProps={{ ...props.innerProps, onScroll }} />;
}

/**
 * While another keyword's search runs, its options stay (filtered on the client), but only those
 * of the same list: another parent's (a cascade's country changed) or flag's are never shown.
 */
const sameList = (previous: readonly unknown[] | undefined, next: readonly unknown[]) =>
  previous !== undefined && JSON.stringify(previous.slice(0, -1)) === JSON.stringify(next.slice(0, -1));

/** Keys that move the highlight: Enter then takes what the user highlighted. */
const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp']);

/**
 * The ranked options as objects that keep their identity while what is typed and the best match
 * stay the same, and get new ones when either changes. react-select keeps its highlight on the
 * same object across renders: new objects move it back to the first (best) option, stable ones
 * keep it where the user moved it, also while the next page is appended.
 */
function useHighlightReset(ranked: readonly Option[], typed: string, navigated: { current: boolean }) {
  const copies = useRef({ key: '', byValue: new Map<string, Option>() });
  return useMemo(() => {
    const key = `${typed}\u0000${ranked[0]?.value ?? ''}`;
    if (!navigated.current && copies.current.key !== key) copies.current = { key, byValue: new Map() };
    const { byValue } = copies.current;
    return ranked.map((option) => {
      const known = byValue.get(option.value);
      if (known && known.label === option.label) return known;
      const copy = { ...option };
      byValue.set(option.value, copy);
      return copy;
    });
  }, [ranked, typed, navigated]);
}

/**
 * A selector over another resource's list: keyword search on the server and the next page of 100
 * appended on reaching the bottom, while fewer than the total are loaded. What is typed filters
 * and ranks the options already loaded at once (exact, then prefix, then substring matches), while
 * the server's search runs; Enter never takes an option that does not match what is typed.
 */
export function ResourceSelect(props: Props) {
  const {
    source,
    inputId,
    label,
    disabled,
    parent,
    listFlag,
    error,
    help,
    required,
    isOptionDisabled,
    onBlur,
  } = props;
  const theme = useTheme();
  const [opened, setOpened] = useState(false);
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const [menuOpen, setMenuOpen] = useState(false);
  /** An Enter pressed while the search for this text was still running. */
  const [pendingEnter, setPendingEnter] = useState<string | null>(null);
  const navigated = useRef(false);
  const selectRef = useRef<SelectInstance<Option, boolean>>(null);
  const typed = input.trim();

  useEffect(() => {
    const t = setTimeout(() => setKeyword(input.trim()), KEYWORD_DELAY_MS);
    return () => clearTimeout(t);
  }, [input]);

  const queryKey = queryKeys.options.list(
    source.key,
    parent?.endpoint ?? source.endpoints.list,
    parent?.value ?? '',
    listFlag ?? '',
    keyword,
  );
  const options = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchOptionsPage(source, parent, listFlag, keyword, pageParam),
    placeholderData: (previous, previousQuery) =>
      sameList(previousQuery?.queryKey, queryKey) ? previous : undefined,
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.options.length, 0);
      return loaded < last.total && last.options.length > 0 ? pages.length + 1 : undefined;
    },
    enabled: opened && !disabled,
    retry: false,
    staleTime: 30_000,
  });

  const loaded = useMemo(() => options.data?.pages.flatMap((p) => p.options) ?? [], [options.data]);
  // The server has answered for exactly what is typed: its matches (by any field) are the list.
  // Until then the options loaded for an earlier text are narrowed to those matching this one.
  const settled = keyword === typed && options.data !== undefined && !options.isPlaceholderData;
  const ranked = useMemo(() => rankOptions(loaded, typed, settled), [loaded, typed, settled]);
  const shown = useHighlightReset(ranked, typed, navigated);
  const searching = !settled && typed !== '';
  // What Enter may take: a multi-select's menu hides the options already chosen.
  const chosen = props.isMulti ? props.value : null;
  const candidates = useMemo(() => {
    const taken = new Set((chosen ?? []).map((o) => o.value));
    return shown.filter((o) => !taken.has(o.value) && !isOptionDisabled?.(o));
  }, [shown, chosen, isOptionDisabled]);

  // An Enter held for the search: once it is in, the best match is taken, if anything matches.
  useEffect(() => {
    if (pendingEnter === null) return;
    if (pendingEnter !== typed) {
      setPendingEnter(null);
      return;
    }
    const action = enterAction({ typed, settled, navigated: false, shown: candidates });
    if (action === 'wait') return;
    setPendingEnter(null);
    const best = candidates[0];
    if (action === 'pick' && best) selectRef.current?.selectOption(best);
  }, [pendingEnter, typed, settled, candidates]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (NAVIGATION_KEYS.has(e.key)) navigated.current = true;
    if (e.key !== 'Enter' || !menuOpen || e.nativeEvent.isComposing) return;
    const action = enterAction({ typed, settled, navigated: navigated.current, shown: candidates });
    // react-select takes its highlighted option; without one, Enter would submit the form instead.
    if (action === 'pick' && selectRef.current?.state.focusedOption) return;
    e.preventDefault();
    if (action === 'wait') {
      setPendingEnter(typed);
      setKeyword(typed);
    }
  };

  const failed = options.isError ? source.messages.selectorError : undefined;
  const message = error ?? failed;

  const loadMore = () => {
    if (options.hasNextPage && !options.isFetchingNextPage) void options.fetchNextPage();
  };

  const styles: StylesConfig<Option, boolean> = {
    control: (base, state) => ({
      ...base,
      minHeight: 56,
      borderRadius: theme.shape.borderRadius,
      backgroundColor: 'transparent',
      borderColor: message
        ? theme.palette.error.main
        : state.isFocused
          ? theme.palette.primary.main
          : theme.palette.action.disabled,
      boxShadow: state.isFocused
        ? `0 0 0 1px ${message ? theme.palette.error.main : theme.palette.primary.main}`
        : 'none',
      '&:hover': { borderColor: message ? theme.palette.error.main : theme.palette.text.primary },
    }),
    valueContainer: (base) => ({ ...base, padding: '6px 12px' }),
    singleValue: (base, state) => ({
      ...base,
      color: state.isDisabled ? theme.palette.text.primary : base.color,
    }),
    multiValue: (base) => ({ ...base, backgroundColor: theme.palette.action.selected, borderRadius: 12 }),
    multiValueLabel: (base) => ({ ...base, color: theme.palette.text.primary, padding: '2px 6px' }),
    placeholder: (base) => ({ ...base, color: theme.palette.text.secondary }),
    menuPortal: (base) => ({ ...base, zIndex: theme.zIndex.modal + 1 }),
    menu: (base) => ({
      ...base,
      zIndex: theme.zIndex.modal + 1,
      color: theme.palette.text.primary,
      // A shadow is lost on a dark page: an edge keeps the open menu apart from the form.
      border: `1px solid ${theme.palette.divider}`,
    }),
    indicatorsContainer: (base, state) => ({ ...base, display: state.isDisabled ? 'none' : base.display }),
  };

  const errorId = `${inputId}-message`;
  const helpId = `${inputId}-help`;
  return (
    <FormControl fullWidth variant="outlined" error={Boolean(message)}>
      <InputLabel
        shrink
        htmlFor={inputId}
        sx={{
          bgcolor: 'background.paper',
          px: 0.75,
          ml: -0.75,
          zIndex: 2,
          ...(required ? REQUIRED_MARK : {}),
        }}
      >
        {label}
      </InputLabel>
      <Select<Option, boolean>
        ref={selectRef}
        inputId={inputId}
        instanceId={inputId}
        isMulti={props.isMulti}
        isDisabled={disabled}
        isClearable={!disabled}
        required={required}
        value={props.value}
        onChange={(v) => {
          if (props.isMulti) props.onChange([...(v as MultiValue<Option>)]);
          else props.onChange((v as SingleValue<Option>) ?? null);
        }}
        onBlur={onBlur}
        options={shown}
        isOptionDisabled={isOptionDisabled}
        filterOption={null}
        inputValue={input}
        onInputChange={(value, meta) => {
          if (meta.action === 'input-change' || meta.action === 'set-value' || meta.action === 'menu-close') {
            navigated.current = false;
            setInput(meta.action === 'input-change' ? value : '');
          }
        }}
        onKeyDown={onKeyDown}
        onMenuOpen={() => {
          setOpened(true);
          setMenuOpen(true);
        }}
        onMenuClose={() => {
          setMenuOpen(false);
          setPendingEnter(null);
        }}
        onMenuScrollToBottom={loadMore}
        isLoading={options.isFetching || searching}
        noOptionsMessage={failed ? () => failed : undefined}
        components={{ MenuList }}
        menuPortalTarget={typeof document === 'undefined' ? undefined : document.body}
        menuPlacement="auto"
        styles={styles}
        theme={(base) => ({
          ...base,
          colors: {
            ...base.colors,
            // The chosen option's fill, under text in neutral0: the text green reaches 4.5:1 there.
            primary: theme.palette.brand.text,
            primary75: alpha(theme.palette.primary.main, 0.6),
            primary50: alpha(theme.palette.primary.main, 0.24),
            primary25: alpha(theme.palette.primary.main, 0.1),
            // react-select's greys are for a white page: the scheme's own colours instead (the
            // theme is re-rendered per scheme), so the menu and the chosen value read in dark too.
            neutral0: theme.palette.background.paper,
            neutral5: theme.palette.action.hover,
            neutral10: theme.palette.action.selected,
            neutral20: theme.palette.action.disabled,
            neutral30: theme.palette.text.secondary,
            neutral40: theme.palette.text.secondary,
            neutral50: theme.palette.text.secondary,
            neutral60: theme.palette.text.secondary,
            neutral70: theme.palette.text.primary,
            neutral80: theme.palette.text.primary,
            neutral90: theme.palette.text.primary,
          },
        })}
        aria-invalid={Boolean(message)}
        aria-errormessage={message ? errorId : undefined}
      />
      {message ? (
        // Announced when it appears: react-select keeps aria-describedby for its own placeholder.
        <FormHelperText id={errorId} aria-live="polite">
          {message}
        </FormHelperText>
      ) : (
        help && <FormHelperText id={helpId}>{help}</FormHelperText>
      )}
    </FormControl>
  );
}

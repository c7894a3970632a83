import { useInfiniteQuery } from '@tanstack/react-query';
import { type ResourceDef, SELECTOR_PAGE_SIZE } from '@wfc/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { RegistryRecord } from '../queries';
import { rankOptions } from './optionRanking';

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

const KEYWORD_DELAY_MS = 300;

/** Pure: a record as a selector's option, named as its definition says; a switched-off one says so. */
export function toOption(source: ResourceDef, record: RegistryRecord): Option {
  const code = String(record[source.code]);
  const name = record[source.nameField];
  const label = typeof name === 'string' && name ? name : code;
  const flag = source.activeFlag;
  return { value: code, label: flag && record[flag.field] === false ? `${label} (${flag.offLabel})` : label };
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
 * While another keyword's search runs, its options stay (filtered on the client), but only those
 * of the same list: another parent's (a cascade's country changed) or flag's are never shown.
 */
const sameList = (previous: readonly unknown[] | undefined, next: readonly unknown[]) =>
  previous !== undefined && JSON.stringify(previous.slice(0, -1)) === JSON.stringify(next.slice(0, -1));

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

export interface OptionSearch {
  source: ResourceDef;
  parent?: SelectParent;
  listFlag?: string;
  /** The menu was opened once and the selector is enabled: only then are options asked for. */
  enabled: boolean;
  /** The user moved the highlight with the keys: it stays where they put it. */
  navigated: { current: boolean };
}

/**
 * A selector's options for what is typed: the server searched 300 ms after typing stops, 100 at
 * a time, and meanwhile the options already loaded narrowed and ranked at once.
 */
export function useOptions({ source, parent, listFlag, enabled, navigated }: OptionSearch) {
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
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
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchOptionsPage(source, parent, listFlag, keyword, pageParam),
    placeholderData: (previous, previousQuery) =>
      sameList(previousQuery?.queryKey, queryKey) ? previous : undefined,
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.options.length, 0);
      return loaded < last.total && last.options.length > 0 ? pages.length + 1 : undefined;
    },
    enabled,
    retry: false,
    staleTime: 30_000,
  });

  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.options) ?? [], [query.data]);
  // The server has answered for exactly what is typed: its matches (by any field) are the list.
  // Until then the options loaded for an earlier text are narrowed to those matching this one.
  const settled = keyword === typed && query.data !== undefined && !query.isPlaceholderData;
  const ranked = useMemo(() => rankOptions(loaded, typed, settled), [loaded, typed, settled]);
  const shown = useHighlightReset(ranked, typed, navigated);
  const loadMore = () => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };
  return {
    input,
    setInput,
    /** Searches for the typed text now, without waiting for typing to stop. */
    searchNow: () => setKeyword(typed),
    typed,
    settled,
    shown,
    searching: !settled && typed !== '',
    fetching: query.isFetching,
    failed: query.isError ? source.messages.selectorError : undefined,
    loadMore,
  };
}

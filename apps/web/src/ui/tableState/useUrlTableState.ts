import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { lastPage } from '../paging';
import type { TablePage, TableUrl } from './tableUrl';

/**
 * A table's state, read from the URL's search params as the screen's `url` declares them. A change
 * is a history entry of its own, so Back steps through the pages, sorts and filters seen.
 */
export function useUrlTableState<Q extends TablePage>(url: TableUrl<Q>) {
  const [params, setParams] = useSearchParams();
  return {
    query: url.read(params),
    setQuery: (next: Q) => setParams(url.write(next)),
    /** For corrections the user did not ask for: Back should not return to them. */
    replaceQuery: (next: Q) => setParams(url.write(next), { replace: true }),
    /** Names the rows on screen: it changes exactly when they may be other rows. */
    queryString: params.toString(),
  };
}

/** A loaded page: how many rows it has, and how many the whole list has. */
export interface LoadedPage {
  rows: number;
  total: number;
}

/**
 * A link past the last page (or a delete or filter that shrank the list) shows the last real page
 * instead of an empty one.
 */
export function useLastRealPage<Q extends TablePage>(
  { query, replaceQuery }: { query: Q; replaceQuery(next: Q): void },
  loaded: LoadedPage | undefined,
) {
  const last = lastPage(loaded?.total ?? 0, query.limit);
  const pastEnd = loaded !== undefined && loaded.rows === 0 && query.page > last;
  useEffect(() => {
    if (pastEnd) replaceQuery({ ...query, page: last });
  }, [pastEnd, query, last, replaceQuery]);
}

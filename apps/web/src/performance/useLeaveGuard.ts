import { useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';

/** The part of the grid's address that names its rows: everything but their order and page. */
export function dayOfSearch(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ['sortField', 'sortValue', 'page']) params.delete(name);
  params.sort();
  return params.toString();
}

/**
 * While there are unsaved scores, leaving the screen or the day (another date, department or
 * filter) is held for the user to confirm, and closing the tab asks the browser's question.
 * Sorting is not leaving: the whole day is being edited and the drafts follow their rows. Show a
 * DiscardDialog while `state === 'blocked'`.
 */
export function useLeaveGuard(dirty: boolean) {
  // Read when a navigation starts, so a save that leaves in the same tick is not held back.
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyNow.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        dayOfSearch(currentLocation.search) !== dayOfSearch(nextLocation.search)),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return blocker;
}

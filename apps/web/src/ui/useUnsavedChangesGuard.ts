import { useCallback, useEffect, useRef, useState } from 'react';
import { type Blocker, type BlockerFunction, useBlocker } from 'react-router';

export type UnsavedChangesGuard = Blocker & {
  /**
   * Lets every later navigation through without asking, and drops the browser's leave-page
   * question: called once the changes are saved (or carried elsewhere), just before leaving.
   */
  release(): void;
};

/**
 * While there are unsaved changes, leaving the screen (another route, or another page or query of
 * it, by a link, a Back button or the browser's history) is held for the user to confirm, and
 * closing or reloading the tab asks the browser's question. Show a DiscardDialog while
 * `state === 'blocked'`: `proceed()` leaves, `reset()` stays.
 */
export function useUnsavedChangesGuard(dirty: boolean): UnsavedChangesGuard {
  // Read when a navigation starts, so a save that leaves in the same tick is not held back.
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const released = useRef(false);
  const [releasedState, setReleased] = useState(false);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyNow.current &&
      !released.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  const warnOnUnload = dirty && !releasedState;
  useEffect(() => {
    if (!warnOnUnload) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (released.current) return;
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [warnOnUnload]);

  const release = useCallback(() => {
    released.current = true;
    setReleased(true);
  }, []);
  return { ...blocker, release } as UnsavedChangesGuard;
}

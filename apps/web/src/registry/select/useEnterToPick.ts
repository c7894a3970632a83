import { type KeyboardEvent, type RefObject, useEffect, useState } from 'react';
import type { SelectInstance } from 'react-select';
import { enterAction } from './optionRanking';
import type { Option } from './options';

/** Keys that move the highlight: Enter then takes what the user highlighted. */
const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp']);

interface EnterState {
  select: RefObject<SelectInstance<Option, boolean> | null>;
  menuOpen: boolean;
  typed: string;
  settled: boolean;
  /** The options Enter may take, best first. */
  candidates: readonly Option[];
  navigated: { current: boolean };
  /** Starts the search for the typed text at once. */
  searchNow(): void;
}

/**
 * Enter takes an exact match or the highlighted option; while the search runs and nothing loaded
 * matches exactly it is held, and the best match taken when the answer comes; when nothing
 * matches it picks nothing and does not submit the form. Returns the key handler and what to do
 * when the menu closes (an Enter held then is dropped).
 */
export function useEnterToPick({
  select,
  menuOpen,
  typed,
  settled,
  candidates,
  navigated,
  searchNow,
}: EnterState) {
  /** An Enter pressed while the search for this text was still running. */
  const [pendingEnter, setPendingEnter] = useState<string | null>(null);

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
    if (action === 'pick' && best) select.current?.selectOption(best);
  }, [pendingEnter, typed, settled, candidates, select]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (NAVIGATION_KEYS.has(e.key)) navigated.current = true;
    if (e.key !== 'Enter' || !menuOpen || e.nativeEvent.isComposing) return;
    const action = enterAction({ typed, settled, navigated: navigated.current, shown: candidates });
    // react-select takes its highlighted option; without one, Enter would submit the form instead.
    if (action === 'pick' && select.current?.state.focusedOption) return;
    e.preventDefault();
    if (action === 'wait') {
      setPendingEnter(typed);
      searchNow();
    }
  };

  return { onKeyDown, onMenuClose: () => setPendingEnter(null) };
}

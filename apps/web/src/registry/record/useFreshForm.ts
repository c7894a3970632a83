import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { BackState } from '../paths';

/**
 * "Save and add another": the create form starts over as a new form (its own leave guard, its
 * own first focus), on the same screen with the same back target and preset. A draft it was
 * opened with (a deleted record re-created) is saved by then, so the next form starts without it.
 */
export function useFreshForm(): { round: number; startOver(): void } {
  const navigate = useNavigate();
  const { pathname, search, state } = useLocation();
  const [round, setRound] = useState(0);
  const startOver = useCallback(() => {
    const { draft: _saved, ...kept }: BackState = state ?? {};
    navigate(`${pathname}${search}`, { replace: true, state: kept });
    setRound((r) => r + 1);
  }, [navigate, pathname, search, state]);
  return { round, startOver };
}

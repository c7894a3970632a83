import { useCallback, useState } from 'react';
import { DENSITY_STORAGE_KEY, type Density, readDensity } from './columns';

function stored(): string | null {
  try {
    return window.localStorage.getItem(DENSITY_STORAGE_KEY);
  } catch {
    // Storage can be refused (private modes, policies): the grid is then comfortable, unremembered.
    return null;
  }
}

/** The grid's row density, remembered in this browser across visits. */
export function useDensity() {
  const [density, setDensityState] = useState<Density>(() => readDensity(stored()));
  const setDensity = useCallback((next: Density) => {
    setDensityState(next);
    try {
      window.localStorage.setItem(DENSITY_STORAGE_KEY, next);
    } catch {
      // Not remembered, but still applied for this visit.
    }
  }, []);
  return [density, setDensity] as const;
}

import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { type Density, ROW_HEIGHT } from './columns';

export interface RowWindow {
  /** The rows to draw: index, and top and bottom in pixels from the top of the body. */
  items: readonly { index: number; start: number; end: number }[];
  /** The height of every row together, drawn or not. */
  total: number;
  /** Given each drawn row, so rows taller than estimated (a conflict's choice) are measured. */
  measure?(el: HTMLTableRowElement | null): void;
  /** Scrolls a row into view, so that it is drawn. */
  reveal(row: number): void;
  headRef: RefObject<HTMLTableSectionElement | null>;
  /** The sticky header's height: rows scrolled to stop below it. */
  headHeight: number;
}

/** Rows drawn beyond each edge of the box: a fast scroll or key repeat shows no blank rows. */
const OVERSCAN = 10;

/**
 * The rows in view, and the row of the focused cell wherever it is: scrolled out of view, its
 * input stays, so the focus (and what the user types next) is not lost to the page.
 */
export function withKeptRow(range: Range, kept: number): number[] {
  const rows = defaultRangeExtractor(range);
  if (kept < 0 || kept >= range.count || rows.includes(kept)) return rows;
  return kept < (rows[0] ?? 0) ? [kept, ...rows] : [...rows, kept];
}

/**
 * Which rows of the table to draw. While editing (`virtual`) only the rows in the scroll box and a
 * few around them; otherwise every row, as a page has at most 100.
 */
export function useRowWindow({
  count,
  box,
  virtual,
  density,
  kept,
}: {
  count: number;
  box: RefObject<HTMLDivElement | null>;
  virtual: boolean;
  density: Density;
  /** The focused cell's row, drawn even when out of view. */
  kept: RefObject<{ row: number }>;
}): RowWindow {
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  // Observed rather than read on every render: a read after each scroll step's new rows made the
  // browser lay the table out again in the middle of the step.
  useLayoutEffect(() => {
    const head = headRef.current;
    if (!head) return;
    setHeadHeight(head.offsetHeight);
    const observer = new ResizeObserver(() => setHeadHeight(head.offsetHeight));
    observer.observe(head);
    return () => observer.disconnect();
  }, []);
  const estimate = ROW_HEIGHT[density][virtual ? 'edit' : 'read'];
  const virtualizer = useVirtualizer({
    count: virtual ? count : 0,
    getScrollElement: () => box.current,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    scrollPaddingStart: headHeight,
    rangeExtractor: (range) => withKeptRow(range, kept.current.row),
  });
  // Another density changes every row's height at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the density is the trigger.
  useLayoutEffect(() => virtualizer.measure(), [density, virtualizer]);
  const reveal = useCallback(
    (row: number) => virtualizer.scrollToIndex(row, { align: 'auto' }),
    [virtualizer],
  );
  if (!virtual) {
    const items = Array.from({ length: count }, (_, index) => ({ index, start: 0, end: 0 }));
    return { items, total: 0, reveal, headRef, headHeight };
  }
  return {
    items: virtualizer.getVirtualItems(),
    total: virtualizer.getTotalSize(),
    measure: virtualizer.measureElement,
    reveal,
    headRef,
    headHeight,
  };
}

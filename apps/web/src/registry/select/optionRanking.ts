/*
 * How a selector orders and narrows its options for what has been typed, and what Enter does
 * meanwhile. Pure, so that the rules are tested on their own (test/registry/optionRanking.test.ts).
 */

export interface Labelled {
  label: string;
}

/** How well a label matches the typed text: exact, then prefix, then anywhere, then not at all. */
export const MatchTier = { Exact: 0, Prefix: 1, Substring: 2, None: 3 } as const;
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];

/** Case, accents and runs of spaces do not count; surrounding spaces neither. */
export const normaliseTyped = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').trim().replace(/\s+/g, ' ').toLowerCase();

export function matchTier(label: string, typed: string): MatchTier {
  const t = normaliseTyped(typed);
  if (!t) return MatchTier.Exact;
  const l = normaliseTyped(label);
  if (l === t) return MatchTier.Exact;
  if (l.startsWith(t)) return MatchTier.Prefix;
  return l.includes(t) ? MatchTier.Substring : MatchTier.None;
}

/**
 * The options in the order shown for `typed`: exact matches first, then prefix, then substring
 * matches, each group in the order given (the server's, by name). Options whose label
 * does not contain the text are dropped, unless `keepUnmatched` (the server found them by another
 * field): then they come last.
 */
export function rankOptions<T extends Labelled>(
  options: readonly T[],
  typed: string,
  keepUnmatched = false,
): T[] {
  if (!normaliseTyped(typed)) return [...options];
  const tiers = options.map((option, index) => ({ option, index, tier: matchTier(option.label, typed) }));
  return tiers
    .filter((t) => keepUnmatched || t.tier !== MatchTier.None)
    .sort((a, b) => a.tier - b.tier || a.index - b.index)
    .map((t) => t.option);
}

export interface EnterContext {
  /** The text in the selector's input. */
  typed: string;
  /** The server has answered the search for exactly this text. */
  settled: boolean;
  /** The user moved the highlight (arrow keys) since typing: Enter takes what they highlighted. */
  navigated: boolean;
  /** The options shown, ranked for `typed` (rankOptions). */
  shown: readonly Labelled[];
}

/**
 * What Enter does in an open selector menu:
 * - `pick`: react-select takes the highlighted option (the first, unless the user moved it);
 * - `wait`: the search for what was typed is still running and nothing loaded matches it exactly:
 *   hold the Enter and take the best match once the answer is in;
 * - `nothing`: nothing matches; Enter neither picks an option nor submits the form.
 */
export function enterAction({ typed, settled, navigated, shown }: EnterContext): 'pick' | 'wait' | 'nothing' {
  if (!normaliseTyped(typed)) return shown.length > 0 ? 'pick' : 'nothing';
  if (navigated && shown.length > 0) return 'pick';
  const first = shown[0];
  if (first && matchTier(first.label, typed) === MatchTier.Exact) return 'pick';
  if (!settled) return 'wait';
  return first ? 'pick' : 'nothing';
}

import type { ResourceDef, SubListDef } from '@wfc/contract';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { readDraft } from './drafts';

export const REGISTRY = '/registry';

const enc = encodeURIComponent;

export const listPath = (def: ResourceDef) => `${REGISTRY}/${def.listSegment}`;
/** The audit log filtered to one record: everything that happened to it. */
export const historyPath = (def: ResourceDef, code: string) =>
  `${REGISTRY}/audit-logs?${new URLSearchParams({ collection: def.listSegment, recordCode: code })}`;
export const viewPath = (def: ResourceDef, code: string) => `${REGISTRY}/${def.itemSegment}/${enc(code)}`;
export const createPath = (def: ResourceDef) => `${REGISTRY}/${def.itemSegment}/create`;
export const editPath = (def: ResourceDef, code: string) =>
  `${REGISTRY}/${def.itemSegment}/edit/${enc(code)}`;
export const subListPath = (parent: ResourceDef, code: string, sub: SubListDef) =>
  `${viewPath(parent, code)}/${sub.segment}`;

/** What a screen passes on when it opens another one, so Back can return to it. */
export interface BackState {
  back?: string;
  /**
   * The back target's own history state (its back target, and so on): Back hands it on, so a
   * chain of screens (a country, its states, a state, its cities) unwinds one step at a time.
   */
  backState?: BackState;
  /** Create forms opened from a sub-list start with the parent filled in: field name -> option. */
  preset?: Record<string, { value: string; label: string }>;
  /** A create form opened to re-create a deleted record starts with these values (see drafts.ts). */
  draft?: string;
}

/** Where Back goes: a path, with the state that path was opened with. */
export interface BackTarget {
  to: string;
  state?: BackState;
}

/** How many screens deep a back chain is kept; older steps fall back to each screen's default. */
export const MAX_BACK_DEPTH = 12;

/** Only same-app paths are followed, so a crafted history state cannot send the user elsewhere. */
const isAppPath = (path: unknown): path is string =>
  typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');

/** The back chain of a history state, checked at every level and cut at MAX_BACK_DEPTH. */
export function backChain(state: unknown, depth = 0): BackState | undefined {
  const back = (state as BackState | null | undefined)?.back;
  if (!isAppPath(back) || depth >= MAX_BACK_DEPTH) return undefined;
  const rest = backChain((state as BackState).backState, depth + 1);
  return rest ? { back, backState: rest } : { back };
}

/** Reads the back target out of a history state: its path, and the state to reopen it with. */
export function readBackTarget(state: unknown): BackTarget | undefined {
  const chain = backChain(state);
  if (!chain?.back) return undefined;
  return chain.backState ? { to: chain.back, state: chain.backState } : { to: chain.back };
}

/** The page this screen was opened from (with its own way back), else `fallback`. */
export function useBackTarget(fallback: string): BackTarget {
  return readBackTarget(useLocation().state) ?? { to: fallback };
}

/** Follows a back target, handing on the state it was opened with. */
export function useGoBack() {
  const navigate = useNavigate();
  return useCallback(
    (target: BackTarget) => navigate(target.to, target.state ? { state: target.state } : undefined),
    [navigate],
  );
}

/**
 * The state that opens a screen from here: the current path (with its query: page, sort, filter)
 * as the back target, and this screen's own back chain behind it.
 */
export function stateFrom(
  here: string,
  currentState: unknown,
  extra: Omit<BackState, 'back' | 'backState'> = {},
) {
  const chain = backChain(currentState, 1);
  return { ...extra, back: here, ...(chain ? { backState: chain } : {}) } satisfies BackState;
}

/** Navigates on, handing the current path (with its query: page, sort, filter) as the back target. */
export function useNavigateWithBack() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const current: unknown = location.state;
  return useCallback(
    (to: string, extra: Omit<BackState, 'back' | 'backState'> = {}) =>
      navigate(to, { state: stateFrom(here, current, extra) }),
    [navigate, here, current],
  );
}

/** Options handed over by a sub-list's Add button, if any. */
export function usePreset(): NonNullable<BackState['preset']> {
  const preset = (useLocation().state as BackState | null)?.preset;
  return preset && typeof preset === 'object' ? preset : {};
}

/** Values a create form was opened with (a deleted record's form, re-created), if any. */
export function useDraft<T>(): T | undefined {
  return readDraft<T>((useLocation().state as BackState | null)?.draft);
}

/** Reads a dotted path; `a[].b` maps over the array at `a`. */
export function readPath(record: unknown, path: string): unknown {
  const [head = '', ...rest] = path.split('[].');
  const base = head
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
      record,
    );
  if (rest.length === 0) return base;
  return Array.isArray(base) ? base.map((item) => readPath(item, rest.join('[].'))) : [];
}

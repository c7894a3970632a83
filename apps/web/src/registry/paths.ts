import type { ResourceDef, SubListDef } from '@wfc/contract';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

export const REGISTRY = '/registry';

const enc = encodeURIComponent;

export const listPath = (def: ResourceDef) => `${REGISTRY}/${def.listSegment}`;
export const viewPath = (def: ResourceDef, code: string) => `${REGISTRY}/${def.itemSegment}/${enc(code)}`;
export const createPath = (def: ResourceDef) => `${REGISTRY}/${def.itemSegment}/create`;
export const editPath = (def: ResourceDef, code: string) =>
  `${REGISTRY}/${def.itemSegment}/edit/${enc(code)}`;
export const subListPath = (parent: ResourceDef, code: string, sub: SubListDef) =>
  `${viewPath(parent, code)}/${sub.segment}`;

/** What a screen passes on when it opens another one, so Back can return to it. */
export interface BackState {
  back?: string;
  /** Create forms opened from a sub-list start with the parent filled in: field name -> option. */
  preset?: Record<string, { value: string; label: string }>;
}

/** Only same-app paths are followed, so a crafted history state cannot send the user elsewhere. */
function readBack(state: unknown): string | undefined {
  const back = (state as BackState | null)?.back;
  return typeof back === 'string' && back.startsWith('/') && !back.startsWith('//') ? back : undefined;
}

/** The page this screen was opened from, else `fallback`. */
export function useBackTarget(fallback: string): string {
  return readBack(useLocation().state) ?? fallback;
}

/** Navigates on, handing the current path (with its query: page, sort, filter) as the back target. */
export function useNavigateWithBack() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return useCallback(
    (to: string, extra: Omit<BackState, 'back'> = {}) =>
      navigate(to, { state: { ...extra, back: here } satisfies BackState }),
    [navigate, here],
  );
}

/** Options handed over by a sub-list's Add button, if any. */
export function usePreset(): NonNullable<BackState['preset']> {
  const preset = (useLocation().state as BackState | null)?.preset;
  return preset && typeof preset === 'object' ? preset : {};
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

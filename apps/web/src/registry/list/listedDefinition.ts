import { isDetailPath, type ResourceDef, VIEW_PERSONAL_DATA } from '@wfc/contract';
import { useMemo } from 'react';
import { useCan } from '../../auth/auth';

/**
 * Pure: the definition as a list shows it to a user who does not see its detail fields
 * (need-to-know): those columns neither sort nor filter, since the server refuses both.
 */
export function withoutDetailSorting(def: ResourceDef): ResourceDef {
  if (!def.personal) return def;
  const hidden = (path: string) => isDetailPath(def, path);
  return {
    ...def,
    columns: def.columns.map(({ sortField, ...c }) =>
      sortField && !hidden(c.path) ? { ...c, sortField } : c,
    ),
    filters: def.filters.filter((f) => !hidden(f.path)),
  };
}

/** The definition a list is drawn from, for the signed-in user. */
export function useListedDefinition(def: ResourceDef): ResourceDef {
  const can = useCan();
  const details = can(VIEW_PERSONAL_DATA);
  return useMemo(() => (details ? def : withoutDetailSorting(def)), [def, details]);
}

import { RESOURCES, type ResourceDef, subListsOf } from '@wfc/contract';
import { shellScreenTitle, trimTrailingSlashes, withAppName } from './shellTitles';

const bySegment = (pick: (r: ResourceDef) => string, segment: string | undefined) =>
  RESOURCES.find((r) => pick(r) === segment);

/**
 * The screen title for a path. Derived from the route shapes (list, view, create, edit,
 * sub-list) and the resource definitions, so every registry screen gets a title without each
 * setting its own.
 */
export function screenTitle(pathname: string): string | null {
  const shell = shellScreenTitle(pathname);
  if (shell !== undefined) return shell;
  const [, first, second, third, ...rest] = trimTrailingSlashes(pathname).split('/').slice(1);
  if (rest.length > 0) return null;
  const list = bySegment((r) => r.listSegment, first);
  if (list && second === undefined) return list.plural;
  // A module's recycle bin, where it has deletes.
  if (list?.endpoints.delete && second === 'deleted' && third === undefined) {
    return `Deleted ${list.plural.toLowerCase()}`;
  }
  const item = bySegment((r) => r.itemSegment, first);
  if (!item || second === undefined) return null;
  if (second === 'create' && third === undefined) return `Create ${item.label}`;
  if (second === 'edit' && third !== undefined) return `Update ${item.label}`;
  if (third === undefined) return `View ${item.label}`;
  const sub = subListsOf(item).find((s) => s.segment === third);
  return sub ? `${item.label} ${sub.buttonLabel.replace(/^View /, '')}` : null;
}

export function documentTitle(pathname: string): string {
  return withAppName(screenTitle(pathname));
}

import { RESOURCES, type ResourceDef } from '@wfc/contract';
import { APP_NAME } from './env';

const FIXED: Record<string, string> = {
  '/': 'Home',
  '/login': 'Login',
  '/access-denied': 'Access Denied',
  '/registry': 'Registry',
  '/performance-snapshot': 'Performance Snapshot',
};

const bySegment = (pick: (r: ResourceDef) => string, segment: string | undefined) =>
  RESOURCES.find((r) => pick(r) === segment);

/**
 * The screen title for a path. Derived from the route shapes of SPEC.md section 2 and the
 * resource definitions, so every registry screen gets a title without each setting its own.
 */
export function screenTitle(pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (FIXED[path]) return FIXED[path];
  const [root, first, second, third, ...rest] = path.split('/').slice(1);
  if (root !== 'registry' || rest.length > 0) return null;
  const list = bySegment((r) => r.listSegment, first);
  if (list && second === undefined) return list.plural;
  const item = bySegment((r) => r.itemSegment, first);
  if (!item || second === undefined) return null;
  if (second === 'create' && third === undefined) return `Create ${item.label}`;
  if (second === 'edit' && third !== undefined) return `Update ${item.label}`;
  if (third === undefined) return `View ${item.label}`;
  const sub = item.subLists?.find((s) => s.segment === third);
  return sub ? `${item.label} ${sub.buttonLabel.replace(/^View /, '')}` : null;
}

export function documentTitle(pathname: string): string {
  const title = screenTitle(pathname);
  return title ? `${title} | ${APP_NAME}` : APP_NAME;
}

import {
  IMPORT_MODES,
  IMPORT_MODULES,
  type ImportMode,
  type ImportModule,
  importDefOf,
  importPermissions,
} from '@wfc/contract';
import { useMemo } from 'react';
import { useCan } from '../auth/auth';

/** What the screens call a module's records: the list's own title, or the scores. */
export function moduleTitle(module: ImportModule): string {
  return module === 'performance' ? 'Performance scores' : importDefOf(module).plural;
}

/** Where the imported records are seen: the module's list, or the Performance Snapshot. */
export function moduleListPath(module: ImportModule): string {
  return module === 'performance' ? '/performance-snapshot' : `/registry/${importDefOf(module).listSegment}`;
}

export const IMPORTS_PATH = '/imports';
export const newImportPath = (module?: ImportModule) =>
  module ? `${IMPORTS_PATH}/new?${new URLSearchParams({ module })}` : `${IMPORTS_PATH}/new`;
export const importPath = (importCode: string) => `${IMPORTS_PATH}/${encodeURIComponent(importCode)}`;

/** Every permission that lets a user import somewhere: the Imports screen opens for any of them. */
export const ANY_IMPORT_PERMISSION: string[] = [
  ...new Set(IMPORT_MODULES.flatMap((m) => importPermissions(m, 'create'))),
];

/** Pure: the modes `can` allows in `module`, in the contract's order. */
export function modesAllowed(module: ImportModule, can: (...names: string[]) => boolean): ImportMode[] {
  return IMPORT_MODES.filter((mode) => can(...importPermissions(module, mode)));
}

/** The modules the user may import into (creating, at least), in the contract's order. */
export function useImportableModules(): ImportModule[] {
  const can = useCan();
  return useMemo(() => IMPORT_MODULES.filter((m) => modesAllowed(m, can).length > 0), [can]);
}

/** The permission to see a module's records, where the imported ones show. */
const viewPermission = (module: ImportModule) =>
  module === 'performance' ? 'VIEW_PERFORMANCES' : importDefOf(module).permissions.view;

/**
 * Whether the navigation offers Imports: the user may import into a module whose records they
 * may also see (as the Import button stands on that module's list).
 */
export function useOffersImports(): boolean {
  const can = useCan();
  const modules = useImportableModules();
  return modules.some((m) => can(viewPermission(m)));
}

import { RESOURCES, type ResourceDef } from '@wfc/contract';
import { useMemo } from 'react';
import { useCan } from './auth';

/**
 * The modules whose VIEW permission the user holds, in the order of the Modules screen. A file of
 * its own: the resource definitions carry every Zod schema and stay out of the sign-in bundle.
 */
export function useVisibleModules(): ResourceDef[] {
  const can = useCan();
  return useMemo(() => RESOURCES.filter((r) => can(r.permissions.view)), [can]);
}

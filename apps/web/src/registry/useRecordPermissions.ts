import type { ResourceDef } from '@wfc/contract';
import { useCan } from '../auth/auth';

export interface RecordPermissions {
  view: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
}

/** What the user may do with a module's records: held permission, and an endpoint to do it with. */
export function useRecordPermissions(def: ResourceDef): RecordPermissions {
  const can = useCan();
  const may = (endpoint: string | undefined, permission: string | undefined) =>
    Boolean(endpoint && permission && can(permission));
  return {
    view: can(def.permissions.view),
    create: may(def.endpoints.create, def.permissions.create),
    update: may(def.endpoints.update, def.permissions.update),
    delete: may(def.endpoints.delete, def.permissions.delete),
  };
}

import { z } from 'zod';
import { codeRef } from './fields.ts';
import { listQuerySchema } from './query.ts';
import type { ResourceDef } from './resources/define.ts';
import { RESOURCES } from './resources/index.ts';
import { timestamp } from './resources/record-parts.ts';

/*
 * The recycle bin (docs/product.md, "Recycle bin"): a deleted registry record waits there, for
 * holders of its module's DELETE permission to restore it or delete it permanently.
 */

export const DELETED_RECORDS_ENDPOINT = 'GetDeletedRecords';
export const RESTORE_RECORD_ENDPOINT = 'RestoreRecord';
export const PURGE_RECORD_ENDPOINT = 'PurgeRecord';

/** How long a deleted record waits in the bin by default (`RECYCLE_BIN_DAYS`). */
export const RECYCLE_BIN_DEFAULT_DAYS = 30;

/**
 * A module as the bin's calls name it: its permission module in lower case (`countries` for
 * VIEW_COUNTRIES and DELETE_COUNTRY), as imports name it.
 */
export const binModuleOf = (def: ResourceDef): string =>
  def.permissions.view.replace(/^VIEW_/, '').toLowerCase();

/** The modules whose deleted records go to the bin: every module with a delete. */
export const BIN_RESOURCES: readonly ResourceDef[] = RESOURCES.filter(
  (def) => def.endpoints.delete && def.permissions.delete,
);

const BIN_MODULES = BIN_RESOURCES.map(binModuleOf);

export const binResourceOf = (module: string): ResourceDef | undefined =>
  BIN_RESOURCES.find((def) => binModuleOf(def) === module);

const moduleParam = z.enum(BIN_MODULES as [string, ...string[]], {
  error: `Module must be one of ${BIN_MODULES.join(', ')}`,
});

export const DELETED_SORT_FIELDS = ['deletedAt', 'name'] as const;

/** `GetDeletedRecords`: the list query, the most recently deleted first, within one module. */
export const deletedRecordsQuerySchema = z
  .object({ module: moduleParam })
  .and(listQuerySchema({ defaults: { sortField: 'deletedAt', sortValue: 'desc' } }));

/**
 * A deleted record as the bin lists it: its code and name, when it was deleted and by whom (the
 * DELETE audit entry's user; null when the log names nobody).
 */
export const deletedRecordSchema = z
  .strictObject({
    module: z.string(),
    recordCode: z.string(),
    name: z.string(),
    deletedAt: timestamp,
    deletedBy: z
      .strictObject({ userCode: z.string().nullable(), username: z.string().nullable() })
      .nullable(),
  })
  .meta({ id: 'DeletedRecord' });

export type DeletedRecord = z.output<typeof deletedRecordSchema>;

/**
 * `RestoreRecord` and `PurgeRecord`: the module and the record's code under the module's own code
 * field (`{ module: 'departments', departmentCode: 'DEPT-...' }`).
 */
export const binRecordBodySchema = z
  .looseObject({ module: moduleParam })
  .meta({ description: "`module` and the record's code under its module's code field (`departmentCode`)" })
  .transform((body, ctx) => {
    // The enum has admitted only the bin's modules.
    const def = binResourceOf(body.module) as ResourceDef;
    const code = codeRef(`${def.label} code`).safeParse(new Map(Object.entries(body)).get(def.code));
    if (code.success) return { module: body.module, code: code.data };
    for (const issue of code.error.issues)
      ctx.addIssue({ code: 'custom', path: [def.code], message: issue.message });
    return z.NEVER;
  });

/**
 * What a restore refused for a missing parent answers besides its message: the parent, and
 * whether it waits in the bin (then restoring it first is offered).
 */
export const missingParentSchema = z.strictObject({
  module: z.string(),
  recordCode: z.string(),
  name: z.string().nullable(),
  inBin: z.boolean(),
});

export type MissingParent = z.output<typeof missingParentSchema>;

export const RECYCLE_BIN_MESSAGES = {
  listed: 'Deleted records fetched successfully',
  notInBin: 'This record is not in the recycle bin',
  purged: 'Record deleted permanently',
} as const;

/** '{Label} restored successfully'. */
export const restoredMessage = (def: ResourceDef) => `${def.label} restored successfully`;

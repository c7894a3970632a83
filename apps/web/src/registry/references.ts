import { type ColumnDef, RESOURCES, type ResourceDef } from '@wfc/contract';
import { readPath } from './paths';

/** Another record a row or a record names: its module, its code and the name it is shown by. */
export interface RecordReference {
  source: ResourceDef;
  code: string;
  name: string;
}

/**
 * The record a list column shows, when the column is another module's name field held under that
 * module's key (`department.name`, `user.username`): records carry such a reference as the module's
 * code beside its name (`department.departmentCode`), which is what the column then leads to.
 */
export function columnReference(row: unknown, column: ColumnDef): RecordReference | undefined {
  const [key, field, ...deeper] = column.path.split('.');
  if (deeper.length > 0) return undefined;
  const source = RESOURCES.find((r) => r.key === key);
  if (!source || source.nameField !== field) return undefined;
  return referenceAt(row, source, `${key}.${source.code}`, column.path);
}

/** The reference held at `codePath` and `namePath` of a record, if it holds one. */
export function referenceAt(
  record: unknown,
  source: ResourceDef,
  codePath: string,
  namePath: string,
): RecordReference | undefined {
  const code = readPath(record, codePath);
  const name = readPath(record, namePath);
  if (typeof code !== 'string' || code === '') return undefined;
  return { source, code, name: typeof name === 'string' && name !== '' ? name : code };
}

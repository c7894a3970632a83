import { type FormFieldDef, RESOURCE_BY_KEY } from '@wfc/contract';
import { formatDate } from '../../ui/dates';
import { HiddenValue } from '../../ui/HiddenValue';
import { EMPTY_CELL } from '../format';
import { readPath } from '../paths';
import type { RegistryRecord } from '../queries';
import { ReferenceLink } from '../ReferenceLink';
import { referenceAt } from '../references';
import { type ReadEntry, readText, yesNo } from './ReadList';

/** A field of a definition's form as its view reads it off the record. */
export function fieldEntry(
  field: FormFieldDef,
  record: RegistryRecord | undefined,
  hidden: readonly string[] = [],
): ReadEntry {
  const at = (path: string | undefined) => readPath(record, path ?? field.name);
  const entry = (value: ReadEntry['value'], wide = false) => ({ label: field.label, value, wide });
  // Personal data the viewer may not see is said as hidden, not as empty.
  if (hidden.includes((field.valuePath ?? field.name).split('.')[0] ?? '')) return entry(<HiddenValue />);
  switch (field.kind) {
    case 'select': {
      const reference = field.source
        ? referenceAt(
            record,
            RESOURCE_BY_KEY[field.source],
            field.valuePath ?? field.name,
            field.labelPath ?? field.name,
          )
        : undefined;
      return entry(reference ? <ReferenceLink reference={reference} /> : EMPTY_CELL);
    }
    case 'multiselect': {
      const names = at(field.labelPath);
      return entry(Array.isArray(names) && names.length > 0 ? <NameList names={names} /> : EMPTY_CELL, true);
    }
    case 'switch':
      return entry(yesNo(at(field.valuePath)));
    case 'date': {
      const value = at(field.valuePath);
      return entry(typeof value === 'string' && value ? formatDate(value) : EMPTY_CELL);
    }
    case 'json': {
      const value = at(field.valuePath);
      return entry(value === null || value === undefined ? EMPTY_CELL : JSON.stringify(value, null, 2), true);
    }
    default:
      return entry(readText(at(field.valuePath)), field.kind === 'textarea');
  }
}

function NameList({ names }: { names: readonly unknown[] }) {
  return (
    <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
      {names.map((name) => (
        <li key={String(name)}>{String(name)}</li>
      ))}
    </ul>
  );
}

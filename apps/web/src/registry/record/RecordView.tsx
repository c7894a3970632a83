import { hiddenIn } from '@wfc/contract';
import { recordName } from '../format';
import { useResourceExtension } from '../resourceExtension';
import { fieldEntry } from './fieldEntries';
import { fieldsFor } from './formValues';
import { ReadList } from './ReadList';
import type { RecordFormProps } from './RecordScreen';
import { ViewFrame } from './ViewFrame';

/** The view of every module whose form the definition describes: its fields read, not as inputs. */
export function RecordView({ def, code, record, back }: RecordFormProps) {
  const { recordName: nameOf } = useResourceExtension(def);
  const name = record ? (nameOf ? nameOf(record) : recordName(def, record)) : '';
  const hidden = record ? hiddenIn(def, record) : [];
  return (
    <ViewFrame def={def} code={code} record={record} back={back} name={name}>
      <ReadList entries={fieldsFor(def, 'view').map((field) => fieldEntry(field, record, hidden))} />
    </ViewFrame>
  );
}

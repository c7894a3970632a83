import type { ResourceDef } from '@wfc/contract';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { recordName } from './format';
import { useDeleteRecord } from './mutations';
import type { RegistryRecord } from './queries';

interface Props {
  def: ResourceDef;
  /** The record to delete once confirmed; null while nothing is asked. */
  record: RegistryRecord | null;
  onClose(): void;
  onDeleted(): void;
}

/** Asks before deleting, and stays open (busy) until the lists show the record gone or it is refused. */
export function DeleteRecordDialog({ def, record, onClose, onDeleted }: Props) {
  const remove = useDeleteRecord(def, onDeleted);
  return (
    <ConfirmDeleteDialog
      open={record !== null}
      label={def.label}
      name={record ? recordName(def, record) || String(record[def.code]) : ''}
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (record && def.endpoints.delete) remove.mutate(record, { onSettled: onClose });
      }}
    />
  );
}

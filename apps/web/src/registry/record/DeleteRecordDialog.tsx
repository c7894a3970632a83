import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import {
  comparedFieldsOf,
  compareFields,
  type FieldChange,
  type StaleConflict,
  staleConflictOf,
} from '../conflict/conflict';
import { DeleteConflictDialog } from '../conflict/DeleteConflictDialog';
import { recordName } from '../format';
import { useDeleteRecord } from '../mutations';
import { useNavigateWithBack, viewPath } from '../paths';
import type { RegistryRecord } from '../queries';
import { useResourceExtension } from '../resourceExtension';
import { useRecordPermissions } from '../useRecordPermissions';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { fieldsFor, initialValues } from './formValues';

interface Props {
  def: ResourceDef;
  /** The record to delete once confirmed; null while nothing is asked. */
  record: RegistryRecord | null;
  onClose(): void;
  onDeleted(): void;
}

/** What changed between the row the user chose to delete and the record as it now stands, field by field. */
function formChangesSince(def: ResourceDef, row: RegistryRecord, theirs: RegistryRecord): FieldChange[] {
  const fields = fieldsFor(def, 'view');
  const base = initialValues(fields, row);
  return compareFields(comparedFieldsOf(fields), base, initialValues(fields, theirs), base);
}

/**
 * Asks before deleting, and stays open (busy) until the lists show the record gone or it is
 * refused. The delete names the version the row was read at: when someone changed the record
 * meanwhile, the dialog says who and what, and offers to look at it or delete it anyway (at its
 * new version); when someone deleted it, it says so.
 */
export function DeleteRecordDialog({ def, record, onClose, onDeleted }: Props) {
  const [conflict, setConflict] = useState<StaleConflict | null>(null);
  // A refusal (a record still used, a failed call): the toast tells it, the dialog keeps it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteRecord(def, onDeleted, setConflict);
  const allowed = useRecordPermissions(def);
  const go = useNavigateWithBack();
  const { deleteChanges = (row, theirs) => formChangesSince(def, row, theirs) } = useResourceExtension(def);
  const close = () => {
    setConflict(null);
    setRefusal(null);
    onClose();
  };
  // A refusal other than a stale version is told by a toast and stays said in the dialog, which
  // stays open: its reason outlives the toast, and Delete tries again once the cause is removed.
  const removeNow = (target: RegistryRecord) => {
    setRefusal(null);
    remove.mutate(target, {
      onSuccess: close,
      onError: (err) => {
        if (!staleConflictOf(err)) setRefusal(errorMessage(err, def.messages.failedDelete));
      },
    });
  };
  const name = record ? recordName(def, record) || String(record[def.code]) : '';

  if (record && conflict) {
    const theirs = conflict.theirs;
    return (
      <DeleteConflictDialog
        what={def.label.toLowerCase()}
        message={conflict.message}
        changes={theirs ? deleteChanges(record, theirs) : []}
        theirName={theirs ? recordName(def, theirs) || name : undefined}
        busy={remove.isPending}
        onView={theirs && allowed.view ? () => go(viewPath(def, String(theirs[def.code]))) : undefined}
        onDeleteAnyway={() => theirs && removeNow(theirs)}
        // Gone: the list no longer shows it, so nothing stays selected.
        onDismiss={() => {
          if (!theirs) onDeleted();
          close();
        }}
      />
    );
  }

  return (
    <ConfirmDeleteDialog
      open={record !== null}
      title={`Delete ${def.label.toLowerCase()}?`}
      question={`Are you sure you want to delete "${name}"? It goes to the recycle bin, from where it can be restored.`}
      refusalTitle={`The ${def.label.toLowerCase()} was not deleted`}
      outcome="Nothing was deleted."
      busy={remove.isPending}
      refusal={refusal}
      onCancel={close}
      onConfirm={() => {
        if (record && def.endpoints.delete) removeNow(record);
      }}
    />
  );
}

import UndoIcon from '@mui/icons-material/Undo';
import Button from '@mui/material/Button';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { holdsErased, RESTORE_VERSION_ENDPOINT, type ResourceDef, restorable } from '@wfc/contract';
import { useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { notify } from '../../ui/notify';
import { staleConflictOf, versionOf } from '../conflict/conflict';
import { recordName } from '../format';
import { useInvalidateRegistry } from '../mutations';
import { useNavigateWithBack, viewPath } from '../paths';
import { useRecordQuery } from '../queries';
import { ConfirmDeleteDialog } from '../record/ConfirmDeleteDialog';

/** What an audit entry says of the change it records, as far as restoring it goes. */
export interface RestorableEntry {
  auditCode: string;
  action: string;
  recordCode: string | null;
  before: unknown;
}

/**
 * Pure: whether the view of `entry` offers to restore the values its change replaced: an update of
 * a module whose updates can be restored (`restorable`), that kept those values (none erased
 * since), for a user who may update the module's records.
 */
export const restoreOffered = (entry: RestorableEntry, target: ResourceDef, mayUpdate: boolean): boolean =>
  mayUpdate &&
  entry.action === 'UPDATE' &&
  Boolean(entry.recordCode) &&
  typeof entry.before === 'object' &&
  entry.before !== null &&
  !holdsErased(entry.before) &&
  restorable(target);

interface Props {
  def: ResourceDef;
  auditCode: string;
  code: string;
}

/** "Restore this version", and the confirmation it asks for. */
export function RestoreVersion({ def, auditCode, code }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<UndoIcon />} onClick={() => setOpen(true)}>
        Restore this version
      </Button>
      {open && <RestoreDialog def={def} auditCode={auditCode} code={code} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Reads the record as it stands when opened, and restores on that version: a change someone makes
 * meanwhile is a stale version, told in the dialog (where it stays) and by a toast; trying again
 * then restores over their change, on the version just read again.
 */
function RestoreDialog({ def, auditCode, code, onClose }: Props & { onClose(): void }) {
  const current = useRecordQuery(def, code);
  const record = current.data?.data;
  const version = versionOf(record);
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRegistry();
  const go = useNavigateWithBack();
  const [refusal, setRefusal] = useState<{ message: string; outcome: string } | null>(null);
  const restore = useMutation({
    mutationFn: (at: number) => api.post(RESTORE_VERSION_ENDPOINT, { auditCode, version: at }),
    onSuccess: (res) => {
      notify.success(res.message || def.messages.updated);
      // The view opens on the restored record, not on the one this dialog read before.
      queryClient.setQueryData(queryKeys.registry.record(def.key, code), res);
      void invalidate();
      go(viewPath(def, code));
    },
    onError: (err) => {
      const message = errorMessage(err, def.messages.failedUpdate);
      notify.error(message);
      const stale = staleConflictOf(err);
      // The record is read again, so that Restore tries once more on its version as it now is.
      if (stale) void invalidate();
      setRefusal({
        message,
        outcome: stale?.theirs
          ? 'Nothing was restored. Restore again to put this version over their change.'
          : 'Nothing was restored.',
      });
    },
  });
  const loadFailure = current.error ? errorMessage(current.error, def.messages.viewError) : null;
  const one = def.label.toLowerCase();
  const name = record ? recordName(def, record) : '';
  return (
    <ConfirmDeleteDialog
      open
      id="restore-version"
      title="Restore this version?"
      question={`The ${one}${name ? ` "${name}"` : ''} gets back the values it had before this change. This is saved as a new update, which the audit log records; the values it holds now stay in its history.`}
      refusalTitle={`The ${one} was not restored`}
      outcome={refusal?.outcome}
      confirmLabel="Restore"
      confirmColor="primary"
      busyLabel="Restoring"
      ready={version !== undefined}
      busy={restore.isPending}
      refusal={loadFailure ?? refusal?.message}
      onCancel={onClose}
      onConfirm={() => {
        setRefusal(null);
        if (version !== undefined) restore.mutate(version);
      }}
    />
  );
}

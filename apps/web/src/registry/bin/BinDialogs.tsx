import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { useCan } from '../../auth/auth';
import { FailureAlert } from '../../ui/FailureAlert';
import { Spinner } from '../../ui/Spinner';
import { ConfirmDeleteDialog } from '../record/ConfirmDeleteDialog';
import { missingParentOf, useBinActions } from './binQueries';

/** The deleted record a dialog asks about. */
export interface BinDialogTarget {
  def: ResourceDef;
  code: string;
  name: string;
}

interface Props {
  target: BinDialogTarget | null;
  onClose(): void;
}

interface Refusal {
  message: string;
  /** The record the restore needs back first, when it waits in the bin and the user may restore it. */
  parent?: BinDialogTarget;
}

/**
 * Asks before restoring. A refusal stays in the dialog; when the record needs another one that
 * waits in the bin (a state its country), the dialog offers to restore that one first, after
 * which Restore tries again.
 */
export function RestoreDialog({ target, onClose }: Props) {
  const { restore } = useBinActions();
  const can = useCan();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const restoreNow = () => {
    if (!target) return;
    setRefusal(null);
    restore.mutate(
      { def: target.def, code: target.code },
      {
        onSuccess: close,
        onError: (err) => {
          const parent = missingParentOf(err);
          const mayRestore =
            parent?.inBin && parent.def.permissions.delete && can(parent.def.permissions.delete);
          setRefusal({
            message: errorMessage(err, 'The record was not restored'),
            parent:
              parent && mayRestore
                ? { def: parent.def, code: parent.recordCode, name: parent.name ?? '' }
                : undefined,
          });
        },
      },
    );
  };
  const restoreParent = (parent: BinDialogTarget) => {
    restore.mutate(
      { def: parent.def, code: parent.code },
      {
        onSuccess: () => setRefusal(null),
        onError: (err) => setRefusal({ message: errorMessage(err, 'The record was not restored') }),
      },
    );
  };
  const what = target?.def.label.toLowerCase() ?? 'record';
  const busy = restore.isPending;
  const parent = refusal?.parent;
  return (
    <Dialog
      open={target !== null}
      onClose={busy ? undefined : close}
      aria-labelledby="restore-record-title"
      aria-describedby="restore-record-text"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="restore-record-title">Restore {what}?</DialogTitle>
      <DialogContent>
        <DialogContentText id="restore-record-text">
          "{target?.name}" comes back with its code, its history and its links, as it was when it was deleted.
        </DialogContentText>
        {refusal && (
          <FailureAlert
            title={`The ${what} was not restored`}
            message={refusal.message}
            outcome={parent ? undefined : 'Nothing was restored.'}
            sx={{ mt: 2 }}
          />
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={close} disabled={busy}>
          {refusal ? 'Close' : 'Cancel'}
        </Button>
        {parent ? (
          <Button
            variant="contained"
            disabled={busy}
            onClick={() => restoreParent(parent)}
            startIcon={busy ? <Spinner label="Restoring" /> : undefined}
          >
            Restore the {parent.def.label.toLowerCase()} first
          </Button>
        ) : (
          <Button
            variant="contained"
            disabled={busy}
            onClick={restoreNow}
            startIcon={busy ? <Spinner label="Restoring" /> : undefined}
          >
            Restore
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** Asks before deleting a record of the bin for good; a refusal stays in the dialog. */
export function PurgeDialog({ target, onClose }: Props) {
  const { purge } = useBinActions();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const what = target?.def.label.toLowerCase() ?? 'record';
  return (
    <ConfirmDeleteDialog
      open={target !== null}
      id="purge-record"
      title={`Delete ${what} permanently?`}
      question={`"${target?.name}" will be deleted permanently, with everything kept of it. This cannot be undone.`}
      refusalTitle={`The ${what} was not deleted`}
      outcome="Nothing was deleted."
      confirmLabel="Delete permanently"
      busy={purge.isPending}
      refusal={refusal}
      onCancel={close}
      onConfirm={() => {
        if (!target) return;
        setRefusal(null);
        purge.mutate(
          { def: target.def, code: target.code },
          { onSuccess: close, onError: (err) => setRefusal(errorMessage(err, 'The record was not deleted')) },
        );
      }}
    />
  );
}

import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { Spinner } from '../../ui/Spinner';
import {
  comparedFieldsOf,
  compareFields,
  type FieldChange,
  type StaleConflict,
  staleConflictOf,
} from '../conflict/conflict';
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

/** What changed between the row the user chose to delete and the record as it now stands, by its form's fields. */
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
  const remove = useDeleteRecord(def, onDeleted, setConflict);
  const allowed = useRecordPermissions(def);
  const go = useNavigateWithBack();
  const { deleteChanges } = useResourceExtension(def);
  const close = () => {
    setConflict(null);
    onClose();
  };
  const name = record ? recordName(def, record) || String(record[def.code]) : '';

  if (record && conflict) {
    const theirs = conflict.theirs;
    const changes = !theirs
      ? []
      : deleteChanges
        ? deleteChanges(record, theirs)
        : formChangesSince(def, record, theirs);
    const busy = remove.isPending;
    // Gone: the list no longer shows it, so nothing stays selected.
    const dismiss = theirs
      ? close
      : () => {
          onDeleted();
          close();
        };
    return (
      <Dialog
        open
        onClose={busy ? undefined : dismiss}
        aria-labelledby="delete-conflict-title"
        aria-describedby="delete-conflict-text"
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id="delete-conflict-title">
          {theirs ? `This ${def.label.toLowerCase()} has changed` : `This ${def.label.toLowerCase()} is gone`}
        </DialogTitle>
        <DialogContent>
          <DialogContentText id="delete-conflict-text">{`${conflict.message}.`}</DialogContentText>
          {changes.length > 0 && (
            <Typography component="ul" variant="body2" sx={{ mt: 1.5, mb: 0, pl: 2.5 }}>
              {changes.map((c) => (
                <li key={c.name}>
                  <strong>{c.label}:</strong> {c.theirs}{' '}
                  <Typography component="span" variant="body2" color="text.secondary">
                    (was: {c.base})
                  </Typography>
                </li>
              ))}
            </Typography>
          )}
          {theirs && (
            <DialogContentText sx={{ mt: 1.5 }}>
              {`Look at "${recordName(def, theirs) || name}" as it is now, or delete it anyway.`}
            </DialogContentText>
          )}
        </DialogContent>
        <DialogActions
          sx={{
            px: 3,
            pb: 2,
            gap: 1,
            // On a phone the choices stack, full width, the one that deletes on top.
            flexDirection: { xs: 'column-reverse', sm: 'row' },
            alignItems: { xs: 'stretch', sm: 'center' },
            '& > :not(style) ~ :not(style)': { ml: 0 },
          }}
        >
          <Button onClick={dismiss} disabled={busy}>
            {theirs ? 'Cancel' : 'Close'}
          </Button>
          {theirs && allowed.view && (
            <Button
              variant="outlined"
              disabled={busy}
              onClick={() => go(viewPath(def, String(theirs[def.code])))}
            >
              View current {def.label.toLowerCase()}
            </Button>
          )}
          {theirs && (
            <Button
              color="error"
              variant="contained"
              disabled={busy}
              startIcon={busy ? <Spinner label="Deleting" /> : undefined}
              onClick={() => {
                remove.mutate(theirs, {
                  onSuccess: close,
                  onError: (err) => {
                    if (!staleConflictOf(err)) close();
                  },
                });
              }}
            >
              Delete anyway
            </Button>
          )}
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <ConfirmDeleteDialog
      open={record !== null}
      label={def.label}
      name={name}
      busy={remove.isPending}
      onCancel={close}
      onConfirm={() => {
        if (!record || !def.endpoints.delete) return;
        remove.mutate(record, {
          onSuccess: close,
          onError: (err) => {
            if (!staleConflictOf(err)) close();
          },
        });
      }}
    />
  );
}

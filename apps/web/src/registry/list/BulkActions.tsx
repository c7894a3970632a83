import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type FormFieldDef, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { useId, useState } from 'react';
import { api, errorMessage } from '../../api/client';
import { useCan } from '../../auth/auth';
import { FailureAlert } from '../../ui/FailureAlert';
import { notify } from '../../ui/notify';
import { Spinner } from '../../ui/Spinner';
import { versionOf } from '../conflict/conflict';
import { recordName } from '../format';
import { useInvalidateRegistry } from '../mutations';
import type { RegistryRecord } from '../queries';
import { ConfirmDeleteDialog } from '../record/ConfirmDeleteDialog';
import type { Option } from '../select/options';
import { ResourceSelect } from '../select/ResourceSelect';

/** What the user may do to several records at once: delete them, and change which references. */
export function useBulkActions(def: ResourceDef) {
  const can = useCan();
  const { deleteMany, changeMany } = def.endpoints;
  return {
    delete: Boolean(deleteMany && def.permissions.delete && can(def.permissions.delete)),
    changes: changeMany && def.permissions.update && can(def.permissions.update) ? def.bulkChange : [],
  };
}

export type BulkActions = ReturnType<typeof useBulkActions>;

/** Whether the list offers its check boxes: some bulk action is open to the user. */
export const offersBulk = (actions: BulkActions) => actions.delete || actions.changes.length > 0;

/**
 * Sends one bulk write for the chosen records, with the version each was read at: the server
 * writes all of them or none. A refusal is toasted and handed back, for the dialog to keep.
 */
function useBulkWrite(def: ResourceDef, endpoint: string | undefined, failed: string) {
  const invalidate = useInvalidateRegistry();
  return useMutation({
    mutationFn: ({ records, set }: { records: readonly RegistryRecord[]; set?: Record<string, string> }) => {
      if (!endpoint) throw new Error(`${def.label} has no bulk endpoint`);
      return api.post(endpoint, {
        codes: records.map((r) => String(r[def.code])),
        versions: records.map((r) => versionOf(r)),
        ...set,
      });
    },
    onSuccess: async (res) => {
      notify.success(res.message);
      await invalidate();
    },
    onError: async (err) => {
      notify.error(errorMessage(err, failed));
      // A refused write changed nothing, but the records may have changed under it (a stale version).
      await invalidate();
    },
  });
}

interface BarProps {
  def: ResourceDef;
  actions: BulkActions;
  /** The chosen records of the page, in its order. */
  chosen: readonly RegistryRecord[];
  onClear(): void;
}

/**
 * The toolbar over a list while records are checked: how many, and what can be done to all of
 * them at once. Each action asks once, in a dialog that keeps a refusal until it is closed.
 */
export function BulkBar({ def, actions, chosen, onClear }: BarProps) {
  const [asking, setAsking] = useState<'delete' | FormFieldDef | null>(null);
  const plural = def.plural.toLowerCase();
  return (
    <Box
      role="region"
      aria-label={`Selected ${plural}`}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'action.selected',
      }}
    >
      <Typography component="p" fontWeight={600} aria-live="polite" sx={{ mr: 'auto' }}>
        {chosen.length} selected
      </Typography>
      {actions.changes.map((field) => (
        <Button key={field.name} variant="outlined" startIcon={<EditIcon />} onClick={() => setAsking(field)}>
          Change {field.label.toLowerCase()}
        </Button>
      ))}
      {actions.delete && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteIcon />}
          onClick={() => setAsking('delete')}
        >
          Delete
        </Button>
      )}
      <Button onClick={onClear}>Clear selection</Button>
      <BulkDeleteDialog
        def={def}
        open={asking === 'delete'}
        chosen={chosen}
        onClose={() => setAsking(null)}
        onDone={onClear}
      />
      {asking !== null && asking !== 'delete' && (
        <BulkChangeDialog
          def={def}
          field={asking}
          chosen={chosen}
          onClose={() => setAsking(null)}
          onDone={onClear}
        />
      )}
    </Box>
  );
}

/** The chosen records' names, as the dialogs list them: a few, then how many more. */
const SHOWN_NAMES = 5;
function namesOf(def: ResourceDef, chosen: readonly RegistryRecord[]) {
  const names = chosen.map((r) => recordName(def, r) || String(r[def.code]));
  const more = names.length - SHOWN_NAMES;
  return more > 0 ? `${names.slice(0, SHOWN_NAMES).join(', ')} and ${more} more` : names.join(', ');
}

const countOf = (def: ResourceDef, n: number) =>
  `${n} ${n === 1 ? def.label.toLowerCase() : def.plural.toLowerCase()}`;

interface DialogProps {
  def: ResourceDef;
  chosen: readonly RegistryRecord[];
  onClose(): void;
  /** Written: the selection is cleared. */
  onDone(): void;
}

function BulkDeleteDialog({ def, open, chosen, onClose, onDone }: DialogProps & { open: boolean }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useBulkWrite(def, def.endpoints.deleteMany, `Failed to delete ${def.plural.toLowerCase()}`);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = () => {
    setRefusal(null);
    remove.mutate(
      { records: chosen },
      {
        onSuccess: () => {
          close();
          onDone();
        },
        onError: (err) => setRefusal(errorMessage(err, `Failed to delete ${def.plural.toLowerCase()}`)),
      },
    );
  };
  return (
    <ConfirmDeleteDialog
      open={open}
      id="bulk-delete"
      title={`Delete ${countOf(def, chosen.length)}?`}
      question={`Are you sure you want to delete ${namesOf(def, chosen)}? All of them are deleted, or none. They go to the recycle bin, from where they can be restored.`}
      refusalTitle={`The ${def.plural.toLowerCase()} were not deleted`}
      confirmLabel={`Delete ${chosen.length}`}
      busy={remove.isPending}
      refusal={refusal}
      onCancel={close}
      onConfirm={confirm}
    />
  );
}

function BulkChangeDialog({ def, field, chosen, onClose, onDone }: DialogProps & { field: FormFieldDef }) {
  const [value, setValue] = useState<Option | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const inputId = useId();
  const what = field.label.toLowerCase();
  const failed = `Failed to change the ${what} of ${def.plural.toLowerCase()}`;
  const change = useBulkWrite(def, def.endpoints.changeMany, failed);
  const source = field.source ? RESOURCE_BY_KEY[field.source] : undefined;
  const confirm = () => {
    if (!value) return;
    setRefusal(null);
    change.mutate(
      { records: chosen, set: { [field.name]: value.value } },
      {
        onSuccess: () => {
          onClose();
          onDone();
        },
        onError: (err) => setRefusal(errorMessage(err, failed)),
      },
    );
  };
  const busy = change.isPending;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="bulk-change-title"
      aria-describedby="bulk-change-text"
      maxWidth="xs"
      fullWidth
      // The selector's menu opens below the dialog's content: it must not be clipped.
      slotProps={{ paper: { sx: { overflow: 'visible' } } }}
    >
      <DialogTitle id="bulk-change-title">
        Change the {what} of {countOf(def, chosen.length)}
      </DialogTitle>
      <DialogContent sx={{ overflow: 'visible' }}>
        <DialogContentText id="bulk-change-text" sx={{ mb: 2.5 }}>
          {`${namesOf(def, chosen)}: all of them change, or none.`}
        </DialogContentText>
        {source && (
          <ResourceSelect
            source={source}
            inputId={inputId}
            label={`New ${what}`}
            listFlag={field.delegation?.listFlag}
            required
            disabled={busy}
            value={value}
            onChange={setValue}
          />
        )}
        {refusal && (
          <FailureAlert
            title={`The ${def.plural.toLowerCase()} were not changed`}
            message={refusal}
            sx={{ mt: 2 }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {refusal ? 'Close' : 'Cancel'}
        </Button>
        <Button
          onClick={confirm}
          variant="contained"
          disabled={busy || !value}
          startIcon={busy ? <Spinner label="Saving" /> : undefined}
        >
          Change {chosen.length}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

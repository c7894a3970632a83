import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { ResourceDef } from '@wfc/contract';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, api, errorMessage } from '../../api/client';
import { notify } from '../../ui/notify';
import { Spinner } from '../../ui/Spinner';
import { recordName } from '../format';
import { useInvalidateRegistry } from '../mutations';
import type { RegistryRecord } from '../queries';
import { bodyResolver } from '../record/bodyResolver';
import { delegatedField, useDelegator } from '../record/delegation';
import { FormFields } from '../record/FormFields';
import { GeneralErrors, useServerFieldErrors } from '../record/fieldErrors';
import { RequiredFields } from '../record/fields/required';
import { dependentsOf, type FormValues, fieldsFor, initialValues, toBody } from '../record/formValues';
import { formTitle } from '../record/RecordScreen';
import { requiredFieldsOf } from '../record/requiredFields';
import type { Option } from './options';

interface Props {
  source: ResourceDef;
  open: boolean;
  onClose(): void;
  /** The new record, as the selector's option. */
  onCreated(option: Option): void;
}

/** `source`'s create form in a dialog over the form that needs the record; a fresh form each time. */
export function CreateRecordDialog({ source, open, onClose, onCreated }: Props) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      {open && <DialogForm source={source} titleId={titleId} onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function DialogForm({ source, titleId, onClose, onCreated }: Omit<Props, 'open'> & { titleId: string }) {
  const fields = useMemo(() => fieldsFor(source, 'create'), [source]);
  const required = useMemo(() => requiredFieldsOf(source, 'create'), [source]);
  const delegator = useDelegator('create', '');
  const invalidate = useInvalidateRegistry();
  const [failure, setFailure] = useState<string>();
  const { control, handleSubmit, setError, setValue, formState } = useForm<FormValues>({
    defaultValues: initialValues(fields),
    resolver: source.createSchema
      ? bodyResolver<FormValues>(source.createSchema, (v) => toBody(fields, v))
      : undefined,
  });
  const serverErrors = useServerFieldErrors(
    setError,
    fields.map((f) => f.name),
  );
  const create = handleSubmit(async (values) => {
    serverErrors.clear();
    setFailure(undefined);
    try {
      const res = await api.post<RegistryRecord>(source.endpoints.create ?? '', toBody(fields, values));
      notify.success(res.message || source.messages.created);
      void invalidate();
      const code = String(res.data?.[source.code] ?? '');
      onCreated({ value: code, label: recordName(source, res.data) || code });
    } catch (err) {
      const message = errorMessage(err, source.messages.failedCreate);
      notify.error(message);
      setFailure(message);
      if (err instanceof ApiError) serverErrors.show(err.errors ?? []);
    }
  });
  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={titleId}
      // The dialog's form sits in the page's form in React's tree: its submit is its own.
      onSubmit={(e) => {
        e.stopPropagation();
        void create(e);
      }}
    >
      <DialogTitle id={titleId}>{formTitle(source, 'create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <GeneralErrors messages={serverErrors.general} />
          <RequiredFields names={required}>
            <FormFields
              def={source}
              fields={fields}
              control={control}
              errors={formState.errors}
              delegatedOf={(field) => delegatedField(field, delegator, undefined)}
              onParentChange={(name) => {
                for (const dep of dependentsOf(fields, name)) setValue(dep, null);
              }}
            />
          </RequiredFields>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          type="submit"
          variant="contained"
          disabled={formState.isSubmitting}
          startIcon={formState.isSubmitting ? <Spinner label="Creating" /> : undefined}
        >
          Create
        </Button>
      </DialogActions>
    </Box>
  );
}

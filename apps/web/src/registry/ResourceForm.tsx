import ListIcon from '@mui/icons-material/ListAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { type FormFieldDef, RESOURCE_BY_KEY, type ResourceDef, subListsOf } from '@wfc/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useCan } from '../auth/auth';
import { ScreenHeader } from '../ui/ScreenHeader';
import { bodyResolver } from './bodyResolver';
import { delegatedField, useDelegator } from './delegation';
import { errorAt, GeneralErrors, useServerFieldErrors } from './fieldErrors';
import { FieldInput } from './fields/FieldInput';
import { dependentsOf, type FormMode, type FormValues, fieldsFor, initialValues, toBody } from './formValues';
import { useSaveRecord } from './mutations';
import { subListPath, useNavigateWithBack, usePreset } from './paths';
import { formTitle, type RecordFormProps, RecordScreen } from './RecordScreen';
import type { Option } from './ResourceSelect';
import { SubmitRow } from './SubmitRow';

interface Props {
  def: ResourceDef;
  mode: FormMode;
}

/** Only presets naming this form's selectors are taken. */
const pick = (preset: Record<string, Option>, fields: readonly FormFieldDef[]) =>
  Object.fromEntries(
    fields.filter((f) => f.kind === 'select' && preset[f.name]).map((f) => [f.name, preset[f.name]]),
  );

/** The one view / create / update screen of every module whose form the definition describes. */
export function ResourceForm({ def, mode }: Props) {
  return (
    <RecordScreen def={def} mode={mode}>
      {(props) => <EntityForm {...props} />}
    </RecordScreen>
  );
}

function EntityForm({ def, mode, code, record, back }: RecordFormProps) {
  const fields = fieldsFor(def, mode);
  const readOnly = mode === 'view';
  const schema = mode === 'create' ? def.createSchema : mode === 'update' ? def.updateSchema : undefined;
  const bodyOf = (values: FormValues) => ({
    ...(mode === 'update' ? { [def.code]: code } : {}),
    ...toBody(fields, values),
  });

  const preset = usePreset();
  const delegator = useDelegator(mode, code);
  const [initial] = useState(() => initialValues(fields, record));
  const { control, handleSubmit, setError, setValue, formState } = useForm<FormValues>({
    defaultValues: { ...initial, ...(mode === 'create' ? pick(preset, fields) : {}) },
    resolver: schema ? bodyResolver<FormValues>(schema, bodyOf) : undefined,
  });
  const serverErrors = useServerFieldErrors(
    setError,
    fields.map((f) => f.name),
  );
  const save = useSaveRecord(def, mode, back, { onFieldErrors: serverErrors.show });
  const subListButtons = useSubListButtons(def, mode, code);

  const submit = handleSubmit(async (values) => {
    serverErrors.clear();
    await save(bodyOf(values));
  });

  return (
    <Box>
      <ScreenHeader title={formTitle(def, mode)} back={back} actions={subListButtons} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 880 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={formTitle(def, mode)}>
          <Stack spacing={3}>
            <GeneralErrors messages={serverErrors.general} />
            {fields.map((field) => (
              <FieldInput
                key={field.name}
                def={def}
                field={field}
                fields={fields}
                control={control}
                readOnly={readOnly}
                delegated={delegatedField(field, delegator, initial[field.name], readOnly)}
                error={errorAt(formState.errors, field.name)}
                onParentChange={(name) => {
                  for (const dep of dependentsOf(fields, name)) setValue(dep, null);
                }}
              />
            ))}
            <SubmitRow hidden={readOnly} submitting={formState.isSubmitting} />
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}

/** A record's view opens its sub-lists (a role's permissions), those the user may see. */
function useSubListButtons(def: ResourceDef, mode: FormMode, code: string) {
  const go = useNavigateWithBack();
  const can = useCan();
  const subLists = mode === 'view' ? subListsOf(def) : [];
  const visible = subLists.filter((s) => can(RESOURCE_BY_KEY[s.resource].permissions.view));
  if (visible.length === 0) return undefined;
  return visible.map((s) => (
    <Button
      key={s.segment}
      variant="outlined"
      startIcon={<ListIcon />}
      onClick={() => go(subListPath(def, code, s))}
    >
      {s.buttonLabel}
    </Button>
  ));
}

import ListIcon from '@mui/icons-material/ListAlt';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormFieldDef, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { type Control, Controller, useForm, useWatch } from 'react-hook-form';
import { api } from '../api/client';
import { useCan } from '../auth/auth';
import { type DelegatedField, delegatedField, useDelegator } from './delegation';
import {
  dependentsOf,
  type FormMode,
  type FormValues,
  fieldsFor,
  initialValues,
  placeFieldErrors,
  toBody,
} from './formValues';
import { subListPath, useNavigateWithBack, usePreset } from './paths';
import {
  bodyResolver,
  errorAt,
  formTitle,
  type RecordFormProps,
  RecordScreen,
  useSaveRecord,
} from './RecordScreen';
import { type Option, ResourceSelect } from './ResourceSelect';
import { ScreenHeader } from './ScreenHeader';
import { SubmitRow } from './SubmitRow';

interface Props {
  def: ResourceDef;
  mode: FormMode;
}

const JSON_MAX_ROWS = 20;

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
  const go = useNavigateWithBack();
  const can = useCan();
  const save = useSaveRecord(def, mode, back);
  const fields = fieldsFor(def, mode);
  const readOnly = mode === 'view';
  const schema = mode === 'create' ? def.createSchema : mode === 'update' ? def.updateSchema : undefined;
  const [generalErrors, setGeneralErrors] = useState<string[]>([]);

  const bodyOf = (values: FormValues) => ({
    ...(mode === 'update' ? { [def.code]: code } : {}),
    ...toBody(fields, values),
  });

  const resolver = schema ? bodyResolver<FormValues>(schema, bodyOf) : undefined;

  const preset = usePreset();
  const delegator = useDelegator(mode, code);
  const [initial] = useState(() => initialValues(fields, record));
  const form = useForm<FormValues>({
    defaultValues: { ...initial, ...(mode === 'create' ? pick(preset, fields) : {}) },
    resolver,
  });
  const { control, handleSubmit, setError, setValue, formState } = form;

  const submit = handleSubmit(async (values) => {
    const endpoint = mode === 'create' ? def.endpoints.create : def.endpoints.update;
    if (!endpoint) return;
    setGeneralErrors([]);
    await save(
      () => api.post(endpoint, bodyOf(values)),
      (errors) => {
        const { placed, unplaced } = placeFieldErrors(
          errors,
          fields.map((f) => f.name),
        );
        for (const [name, message] of placed)
          setError(name, { type: 'server', message }, { shouldFocus: true });
        setGeneralErrors(unplaced);
      },
    );
  });

  const subLists = mode === 'view' ? (def.subLists ?? []) : [];
  const subButtons = subLists
    .filter((s) => can(RESOURCE_BY_KEY[s.resource].permissions.view))
    .map((s) => (
      <Button
        key={s.segment}
        variant="outlined"
        startIcon={<ListIcon />}
        onClick={() => go(subListPath(def, code, s))}
      >
        {s.buttonLabel}
      </Button>
    ));

  return (
    <Box>
      <ScreenHeader
        title={formTitle(def, mode)}
        back={back}
        actions={subButtons.length ? subButtons : undefined}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 880 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={formTitle(def, mode)}>
          <Stack spacing={3}>
            {generalErrors.length > 0 && (
              <Alert severity="error">
                {generalErrors.map((m) => (
                  <div key={m}>{m}</div>
                ))}
              </Alert>
            )}
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

interface FieldInputProps {
  def: ResourceDef;
  field: FormFieldDef;
  fields: readonly FormFieldDef[];
  control: Control<FormValues>;
  readOnly: boolean;
  delegated: DelegatedField;
  error?: string;
  onParentChange(name: string): void;
}

function FieldInput({
  def,
  field,
  fields,
  control,
  readOnly,
  delegated,
  error,
  onParentChange,
}: FieldInputProps) {
  const id = `${def.key}-${field.name}`;
  const parentValue = useWatch({ control, name: field.dependsOn?.field ?? field.name }) as Option | null;
  const [showPassword, setShowPassword] = useState(false);

  if (field.kind === 'select' || field.kind === 'multiselect') {
    const source = field.source ? RESOURCE_BY_KEY[field.source] : undefined;
    if (!source) return null;
    // A cascading selector only makes sense once its parent has a value.
    if (field.dependsOn && !parentValue?.value) return null;
    const parent = field.dependsOn
      ? { endpoint: field.dependsOn.endpoint, param: field.dependsOn.param, value: parentValue?.value ?? '' }
      : undefined;
    const hasDependents = fields.some((f) => f.dependsOn?.field === field.name);
    return (
      <Controller
        name={field.name}
        control={control}
        render={({ field: f }) =>
          field.kind === 'multiselect' ? (
            <ResourceSelect
              isMulti
              source={source}
              inputId={id}
              label={field.label}
              disabled={readOnly || delegated.locked}
              listFlag={delegated.listFlag}
              help={delegated.help}
              isOptionDisabled={delegated.isOptionDisabled}
              error={error}
              value={(f.value as Option[] | undefined) ?? []}
              onChange={f.onChange}
              onBlur={f.onBlur}
            />
          ) : (
            <ResourceSelect
              source={source}
              inputId={id}
              label={field.label}
              disabled={readOnly || delegated.locked}
              listFlag={delegated.listFlag}
              help={delegated.help}
              isOptionDisabled={delegated.isOptionDisabled}
              parent={parent}
              error={error}
              value={(f.value as Option | null | undefined) ?? null}
              onChange={(v) => {
                if (hasDependents && v?.value !== (f.value as Option | null)?.value)
                  onParentChange(field.name);
                f.onChange(v);
              }}
              onBlur={f.onBlur}
            />
          )
        }
      />
    );
  }

  if (field.kind === 'json') {
    return (
      <Controller
        name={field.name}
        control={control}
        render={({ field: f }) => {
          const json = f.value === null || f.value === undefined ? '' : JSON.stringify(f.value, null, 2);
          // Unwrapped JSON scrolls sideways; autosizing would count wrapped lines, so rows are set here.
          const rows = Math.min(Math.max(json.split('\n').length, 2), JSON_MAX_ROWS);
          return (
            <TextField
              id={id}
              label={field.label}
              value={json}
              placeholder="—"
              multiline
              rows={rows}
              fullWidth
              slotProps={{
                input: {
                  readOnly: true,
                  sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
                },
                inputLabel: { shrink: true },
                htmlInput: { wrap: 'off', style: { fontSize: '0.85rem', overflow: 'auto' } },
              }}
            />
          );
        }}
      />
    );
  }

  const isPassword = field.kind === 'password';
  const type = isPassword
    ? showPassword
      ? 'text'
      : 'password'
    : field.kind === 'textarea'
      ? undefined
      : field.kind;
  const helper = error ?? field.help;
  return (
    <Controller
      name={field.name}
      control={control}
      render={({ field: f }) => (
        <TextField
          id={id}
          label={field.label}
          type={type}
          value={(f.value as string | undefined) ?? ''}
          onChange={f.onChange}
          onBlur={f.onBlur}
          inputRef={f.ref}
          name={f.name}
          fullWidth
          multiline={field.kind === 'textarea'}
          minRows={field.kind === 'textarea' ? 3 : undefined}
          placeholder={field.placeholder}
          error={Boolean(error)}
          helperText={
            error && field.help ? (
              <>
                {error}
                {/* The guidance stays readable as guidance, not as part of the error. */}
                <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
                  {field.help}
                </Box>
              </>
            ) : (
              helper
            )
          }
          autoComplete={isPassword ? 'new-password' : field.kind === 'email' ? 'email' : 'off'}
          slotProps={{
            inputLabel: field.kind === 'date' || readOnly ? { shrink: true } : undefined,
            input: {
              readOnly,
              endAdornment: isPassword ? (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={showPassword ? 'Hide password' : 'Show password'}
                    onClick={() => setShowPassword((s) => !s)}
                    edge="end"
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      )}
    />
  );
}

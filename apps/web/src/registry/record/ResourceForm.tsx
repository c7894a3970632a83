import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import type { FormFieldDef, ResourceDef } from '@wfc/contract';
import { type BaseSyntheticEvent, useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useUnsavedInput } from '../../auth/auth';
import { DiscardDialog } from '../../ui/DiscardDialog';
import { HiddenValue } from '../../ui/HiddenValue';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { useUnsavedChangesGuard } from '../../ui/useUnsavedChangesGuard';
import { comparedFieldsOf, compareFields, versionOf } from '../conflict/conflict';
import { useConflictActions } from '../conflict/useConflictActions';
import { type AfterSave, useSaveRecord } from '../mutations';
import { useDraft, usePreset } from '../paths';
import { CreateInContext } from '../select/CreateInContext';
import type { Option } from '../select/ResourceSelect';
import { bodyResolver } from './bodyResolver';
import { delegatedField, useDelegator } from './delegation';
import { FormFields } from './FormFields';
import { GeneralErrors, useServerFieldErrors } from './fieldErrors';
import { RequiredFields } from './fields/required';
import { dependentsOf, type FormMode, type FormValues, fieldsFor, initialValues, toBody } from './formValues';
import { schemaWithout, splitHidden } from './hiddenFields';
import { ReadList } from './ReadList';
import { formTitle, type RecordFormProps, RecordScreen } from './RecordScreen';
import { RecordView } from './RecordView';
import { requiredFieldsOf } from './requiredFields';
import { SaveFailureAlert, useSaveFailure } from './SaveFailure';
import { SubmitRow } from './SubmitRow';
import { UNSAVED_FORM_TEXT, useApplyDraft } from './unsaved';
import { useFreshForm } from './useFreshForm';

interface Props {
  def: ResourceDef;
  mode: FormMode;
}

/** Only values naming this form's fields are taken. */
const onlyFields = (values: FormValues, fields: readonly FormFieldDef[]) =>
  Object.fromEntries(fields.filter((f) => f.name in values).map((f) => [f.name, values[f.name]]));

/** Only presets naming this form's selectors are taken. */
const pick = (preset: Record<string, Option>, fields: readonly FormFieldDef[]) =>
  Object.fromEntries(
    fields.filter((f) => f.kind === 'select' && preset[f.name]).map((f) => [f.name, preset[f.name]]),
  );

/**
 * The one view / create / update screen of every module whose form the definition describes: the
 * view reads the record, create and update edit it.
 */
export function ResourceForm({ def, mode }: Props) {
  return (
    <RecordScreen def={def} mode={mode}>
      {(props) => (mode === 'view' ? <RecordView {...props} /> : <FreshForms {...props} />)}
    </RecordScreen>
  );
}

/** A create form starts over, as a new form, after "Save and add another". */
function FreshForms(props: RecordFormProps) {
  const fresh = useFreshForm();
  return (
    <EntityForm
      key={fresh.round}
      {...props}
      another={props.mode === 'create' ? { startOver: fresh.startOver, round: fresh.round } : undefined}
    />
  );
}

interface EntityFormProps extends RecordFormProps {
  /** Create forms: how to start over after "Save and add another", and how many times it has. */
  another?: { startOver(): void; round: number };
}

function EntityForm({ def, mode, code, record, back, another }: EntityFormProps) {
  // Fields the user may not see (need-to-know) are neither edited nor sent: the server keeps them.
  const { shown: fields, hidden } = splitHidden(
    def,
    fieldsFor(def, mode),
    mode === 'update' ? record : undefined,
  );
  const schema = schemaWithout(
    mode === 'create' ? def.createSchema : mode === 'update' ? def.updateSchema : undefined,
    hidden.map((f) => f.name),
  );
  const bodyOf = (values: FormValues) => ({
    ...(mode === 'update' ? { [def.code]: code } : {}),
    ...toBody(fields, values),
  });

  const preset = usePreset();
  const draft = useDraft<FormValues>();
  const delegator = useDelegator(mode, code);
  const { base, conflict, onConflict, panel } = useConflictActions(def, back, record);
  const initial = useMemo(() => initialValues(fieldsFor(def, mode), base), [def, mode, base]);
  const required = useMemo(() => requiredFieldsOf(def, mode), [def, mode]);
  const [defaults] = useState(() => ({ ...initial, ...(mode === 'create' ? pick(preset, fields) : {}) }));
  const { control, handleSubmit, setError, setValue, setFocus, getValues, reset, formState, watch } =
    useForm<FormValues>({
      defaultValues: defaults,
      resolver: schema ? bodyResolver<FormValues>(schema, bodyOf) : undefined,
    });
  // A deleted record created again: what was typed into its form, as this form's unsaved edits.
  useApplyDraft(
    mode === 'create' && draft ? { ...defaults, ...onlyFields(draft, fields) } : undefined,
    reset,
  );
  const serverErrors = useServerFieldErrors(
    setError,
    fields.map((f) => f.name),
  );
  // While a conflict shows, the user's values are compared as they type on.
  useWatch({ control, disabled: !conflict });
  const guard = useUnsavedChangesGuard(formState.isDirty);
  useUnsavedInput(formState.isDirty);
  // A failed save stays said above the fields until the user edits, submits again or dismisses it.
  const failed = useSaveFailure(watch);
  const save = useSaveRecord(def, mode, back, {
    onFieldErrors: serverErrors.show,
    onConflict,
    onSaved: guard.release,
    onFailed: failed.onFailed,
    onSavedForAnother: another?.startOver,
  });
  // A form started over after "Save and add another" is ready for the next record at once.
  const firstField = fields[0]?.name;
  const startedOver = (another?.round ?? 0) > 0;
  useEffect(() => {
    if (startedOver && firstField) setFocus(firstField);
  }, [startedOver, firstField, setFocus]);

  /** Validates and sends the form, as an update of `version` (the version the form stands on). */
  const saveAt = (version: number | undefined, after: AfterSave = 'back') =>
    handleSubmit(async (values) => {
      serverErrors.clear();
      failed.clear();
      await save({ ...bodyOf(values), ...(mode === 'update' ? { version } : {}) }, after);
    });
  const submit = (e?: BaseSyntheticEvent) => saveAt(versionOf(base))(e);

  const clearDependents = (name: string) => {
    for (const dep of dependentsOf(fields, name)) setValue(dep, null);
  };

  const conflictPanel = panel({
    getValues,
    reset,
    busy: formState.isSubmitting,
    compare: (theirs) =>
      compareFields(
        comparedFieldsOf(fields),
        initial,
        theirs ? initialValues(fields, theirs) : initial,
        getValues(),
      ),
    valuesOf: (theirs) => initialValues(fields, theirs),
    saveAt,
    clearErrors: serverErrors.clear,
    releaseGuard: guard.release,
  });

  return (
    <Box>
      <ScreenHeader title={formTitle(def, mode)} back={back.to} backState={back.state} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 880 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={formTitle(def, mode)}>
          <Stack spacing={3}>
            {conflictPanel}
            <SaveFailureAlert def={def} mode={mode} message={failed.failure} onDismiss={failed.clear} />
            <GeneralErrors messages={serverErrors.general} />
            <RequiredFields names={required}>
              <FormFields
                def={def}
                fields={fields}
                control={control}
                errors={formState.errors}
                delegatedOf={(field) => delegatedField(field, delegator, initial[field.name])}
                onParentChange={clearDependents}
                below={(field, delegated) => (
                  <CreateInContext
                    field={field}
                    control={control}
                    locked={delegated.locked}
                    onChosen={clearDependents}
                  />
                )}
              />
            </RequiredFields>
            {hidden.length > 0 && (
              <ReadList entries={hidden.map((f) => ({ label: f.label, value: <HiddenValue /> }))} />
            )}
            <SubmitRow
              submitting={formState.isSubmitting}
              onAnother={another ? () => saveAt(undefined, 'another')() : undefined}
            />
          </Stack>
        </Box>
      </Paper>
      <DiscardDialog
        open={guard.state === 'blocked'}
        text={UNSAVED_FORM_TEXT}
        onStay={() => guard.reset?.()}
        onDiscard={() => guard.proceed?.()}
      />
    </Box>
  );
}

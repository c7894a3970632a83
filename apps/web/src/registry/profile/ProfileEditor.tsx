import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import { PROFILE_PICTURE_REQUIRED } from '@wfc/contract';
import { type BaseSyntheticEvent, useMemo } from 'react';
import { type FieldErrors, useForm, useWatch } from 'react-hook-form';
import { useUnsavedInput } from '../../auth/auth';
import { DiscardDialog } from '../../ui/DiscardDialog';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { useUnsavedChangesGuard } from '../../ui/useUnsavedChangesGuard';
import { versionOf } from '../conflict/conflict';
import { useConflictActions } from '../conflict/useConflictActions';
import { type AfterSave, useSaveRecord } from '../mutations';
import { useDraft } from '../paths';
import { bodyResolver } from '../record/bodyResolver';
import { errorAt, GeneralErrors, useServerFieldErrors } from '../record/fieldErrors';
import { RequiredFields } from '../record/fields/required';
import { formTitle, type RecordFormProps } from '../record/RecordScreen';
import { requiredFields } from '../record/requiredFields';
import { SaveFailureAlert, useSaveFailure } from '../record/SaveFailure';
import { SubmitRow } from '../record/SubmitRow';
import { UNSAVED_FORM_TEXT, useApplyDraft } from '../record/unsaved';
import { AddressFields } from './AddressFields';
import { HiddenSection } from './HiddenParts';
import { PersonalDetails } from './PersonalDetails';
import type { PROFILE } from './ProfileForm';
import type { ProfileFormParts } from './ProfileLayout';
import { profileConflictPanel } from './profileConflictPanel';
import {
  type HiddenProfileField,
  hiddenProfileFields,
  initialProfileValues,
  PROFILE_FIELDS,
  type ProfileValues,
  profileBody,
  shownUpdateSchema,
} from './profileValues';
import { Notifications, SocialLinks } from './SocialAndNotifications';
import { useSavedPicture } from './useSavedPicture';

interface Props extends RecordFormProps<typeof PROFILE> {
  /** The saved picture as a file, so that an unchanged picture still counts as present. */
  picture: File | null;
  pictureError?: string;
  /** Create forms: starts a fresh form after "Save and add another". */
  onAnother?(): void;
}

/**
 * The check the schema cannot make: the body carries a picture only when it changed, but the form
 * must always hold one, unless the picture is hidden from the user (the stored one is kept).
 */
const pictureErrors =
  (hidden: readonly HiddenProfileField[]) =>
  (v: ProfileValues): FieldErrors<ProfileValues> =>
    v.profilePicture || hidden.includes('profilePicture')
      ? {}
      : { profilePicture: { type: 'required', message: PROFILE_PICTURE_REQUIRED } };

/** The profile's create / update form: its nested address and its picture. */
export function ProfileEditor({ def, mode, code, record, back, picture, pictureError, onAnother }: Props) {
  const { base, conflict, onConflict, panel } = useConflictActions(def, back, record);
  const pictures = useSavedPicture(base, picture, pictureError);
  const pictureChanged = pictures.changed;
  const draft = useDraft<ProfileValues>();
  // Need-to-know: a profile read without its personal details is edited without them. The user
  // neither sees nor sends them, and the server keeps them as stored.
  const hidden = useMemo(() => (mode === 'update' ? hiddenProfileFields(record) : []), [mode, record]);
  const schema = useMemo(
    () => (mode === 'create' ? def.createSchema : mode === 'update' ? shownUpdateSchema(hidden) : undefined),
    [mode, def, hidden],
  );
  const { control, handleSubmit, setValue, setError, getValues, reset, formState, watch } =
    useForm<ProfileValues>({
      defaultValues: initialProfileValues(base, picture),
      resolver: schema
        ? bodyResolver<ProfileValues>(
            schema,
            (v) => profileBody(v, mode, code, pictureChanged, undefined, hidden),
            pictureErrors(hidden),
          )
        : undefined,
    });
  // What an empty form is refused on, by the schema and by the picture check alike.
  const required = useMemo(() => {
    const empty = initialProfileValues();
    return new Set([
      ...requiredFields(schema, profileBody(empty, mode, code, false, undefined, hidden)),
      ...Object.keys(pictureErrors(hidden)(empty)),
    ]);
  }, [schema, mode, code, hidden]);
  // A deleted profile created again: what was typed into its form, as this form's unsaved edits.
  useApplyDraft(mode === 'create' ? draft : undefined, reset);
  const serverErrors = useServerFieldErrors(setError, PROFILE_FIELDS);
  // While a conflict shows, the user's values are compared as they type on.
  useWatch({ control, disabled: !conflict });
  const guard = useUnsavedChangesGuard(formState.isDirty || pictureChanged);
  useUnsavedInput(formState.isDirty || pictureChanged);
  // A failed save stays said above the fields until the user edits, submits again or dismisses it.
  const failed = useSaveFailure(watch);
  const save = useSaveRecord(def, mode, back, {
    multipart: true,
    onFieldErrors: serverErrors.show,
    onConflict,
    onSaved: guard.release,
    onFailed: failed.onFailed,
    onSavedForAnother: onAnother,
  });

  /** Validates and sends the form, as an update of `version` (the version the form stands on). */
  const saveAt = (version: number | undefined, after: AfterSave = 'back') =>
    handleSubmit(async (values) => {
      serverErrors.clear();
      failed.clear();
      await save(
        profileBody(values, mode, code, pictureChanged, mode === 'update' ? version : undefined, hidden),
        after,
      );
    });
  const submit = (e?: BaseSyntheticEvent) => saveAt(versionOf(base))(e);

  const conflictPanel = profileConflictPanel(panel, base, pictures, {
    getValues,
    reset,
    busy: formState.isSubmitting,
    saveAt,
    clearErrors: serverErrors.clear,
    releaseGuard: guard.release,
  });

  const form: ProfileFormParts = {
    control,
    errorOf: (name) => errorAt(formState.errors, name),
  };
  const title = formTitle(def, mode);
  return (
    <Box>
      <ScreenHeader title={title} back={back.to} backState={back.state} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1080 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={title}>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            {conflictPanel}
            <SaveFailureAlert def={def} mode={mode} message={failed.failure} onDismiss={failed.clear} />
            <GeneralErrors messages={serverErrors.general} />
            <RequiredFields names={required}>
              <PersonalDetails
                form={form}
                userEditable={mode === 'create'}
                pictureError={pictures.problem}
                onPictureChange={pictures.markChanged}
                hidden={hidden}
              />
              <Divider />
              {hidden.includes('address') ? (
                <HiddenSection title="Address" />
              ) : (
                <AddressFields form={form} setValue={setValue} />
              )}
              <Divider />
              {hidden.includes('social') ? <HiddenSection title="Social" /> : <SocialLinks form={form} />}
              <Divider />
              {hidden.includes('notification') ? (
                <HiddenSection title="Notifications" />
              ) : (
                <Notifications form={form} />
              )}
            </RequiredFields>
            <SubmitRow
              submitting={formState.isSubmitting}
              onAnother={onAnother ? () => saveAt(undefined, 'another')() : undefined}
            />
          </Box>
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

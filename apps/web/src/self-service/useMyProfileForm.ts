import { PROFILE_PICTURE_REQUIRED, type ProfileRecord, RESOURCE_BY_KEY } from '@wfc/contract';
import type { BaseSyntheticEvent } from 'react';
import { type FieldErrors, useForm, useWatch } from 'react-hook-form';
import { useUnsavedInput } from '../auth/auth';
import { versionOf } from '../registry/conflict/conflict';
import { useConflictActions } from '../registry/conflict/useConflictActions';
import { useSaveRecord } from '../registry/mutations';
import type { ProfileFormParts } from '../registry/profile/ProfileLayout';
import { profileConflictPanel } from '../registry/profile/profileConflictPanel';
import {
  initialProfileValues,
  PROFILE_FIELDS,
  type ProfileValues,
  profileBody,
} from '../registry/profile/profileValues';
import { useSavedPicture } from '../registry/profile/useSavedPicture';
import { bodyResolver } from '../registry/record/bodyResolver';
import { errorAt, useServerFieldErrors } from '../registry/record/fieldErrors';
import { useSaveFailure } from '../registry/record/SaveFailure';
import { useUnsavedChangesGuard } from '../ui/useUnsavedChangesGuard';
import { MY_PROFILE_PATH } from './access';

export const PROFILE = RESOURCE_BY_KEY.profile;
const BACK = { to: MY_PROFILE_PATH };

/** As on the registry's form: the body carries a picture only when it changed, the form always one. */
const pictureErrors = (v: ProfileValues): FieldErrors<ProfileValues> =>
  v.profilePicture ? {} : { profilePicture: { type: 'required', message: PROFILE_PICTURE_REQUIRED } };

/**
 * My profile's form over the registry's profile pieces: the whole profile is sent (UpdateProfile
 * takes the whole body, and the server checks that the fields kept by HR come back unchanged), at
 * the version it was read, with the registry form's conflict handling and leave guard.
 */
export function useMyProfileForm(record: ProfileRecord, picture: File | null, pictureError?: string) {
  const { base, conflict, onConflict, panel } = useConflictActions(PROFILE, BACK, record);
  const pictures = useSavedPicture(base, picture, pictureError);
  const code = record.profileCode;
  const body = (v: ProfileValues, version?: number) =>
    profileBody(v, 'update', code, pictures.changed, version);
  const { control, handleSubmit, setValue, setError, getValues, reset, formState, watch } =
    useForm<ProfileValues>({
      defaultValues: initialProfileValues(base, picture),
      resolver: bodyResolver<ProfileValues>(PROFILE.updateSchema, (v) => body(v), pictureErrors),
    });
  const serverErrors = useServerFieldErrors(setError, PROFILE_FIELDS);
  useWatch({ control, disabled: !conflict });
  const dirty = formState.isDirty || pictures.changed;
  const guard = useUnsavedChangesGuard(dirty);
  useUnsavedInput(dirty);
  const failed = useSaveFailure(watch);
  const save = useSaveRecord(PROFILE, 'update', BACK, {
    multipart: true,
    onFieldErrors: serverErrors.show,
    onConflict,
    onSaved: guard.release,
    onFailed: failed.onFailed,
  });
  const saveAt = (version: number | undefined) =>
    handleSubmit(async (values) => {
      serverErrors.clear();
      failed.clear();
      await save(body(values, version));
    });
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
  return {
    form,
    setValue,
    submit: (e?: BaseSyntheticEvent) => saveAt(versionOf(base))(e),
    submitting: formState.isSubmitting,
    conflictPanel,
    failed,
    general: serverErrors.general,
    guard,
    pictures,
    base,
  };
}

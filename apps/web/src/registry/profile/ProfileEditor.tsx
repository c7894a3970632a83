import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import { PROFILE_PICTURE_REQUIRED, type ProfileRecord } from '@wfc/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { bodyResolver } from '../bodyResolver';
import { errorAt, GeneralErrors, useServerFieldErrors } from '../fieldErrors';
import { useSaveRecord } from '../mutations';
import { formTitle, type RecordFormProps } from '../RecordScreen';
import { SubmitRow } from '../SubmitRow';
import { AddressFields } from './AddressFields';
import { PersonalDetails } from './PersonalDetails';
import type { ProfileFormParts } from './ProfileLayout';
import { initialProfileValues, PROFILE_FIELDS, type ProfileValues, profileBody } from './profileValues';
import { Notifications, SocialLinks } from './SocialAndNotifications';

interface Props extends RecordFormProps {
  /** The saved picture as a file, so that an unchanged picture still counts as present. */
  picture: File | null;
  pictureError?: string;
}

/** The profile's view / create / update form: its nested address and its picture. */
export function ProfileEditor({ def, mode, code, record, back, picture, pictureError }: Props) {
  const readOnly = mode === 'view';
  // An update re-sends the picture only when the user picked another one.
  const [pictureChanged, setPictureChanged] = useState(false);
  const schema = mode === 'create' ? def.createSchema : mode === 'update' ? def.updateSchema : undefined;
  const { control, handleSubmit, setValue, setError, formState } = useForm<ProfileValues>({
    defaultValues: initialProfileValues(record as ProfileRecord | undefined, picture),
    resolver: schema
      ? bodyResolver<ProfileValues>(
          schema,
          (v) => profileBody(v, mode, code, pictureChanged),
          // The schema sees the body, where an unchanged picture is absent; the form must still hold one.
          (v) =>
            v.profilePicture
              ? {}
              : { profilePicture: { type: 'required', message: PROFILE_PICTURE_REQUIRED } },
        )
      : undefined,
  });
  const serverErrors = useServerFieldErrors(setError, PROFILE_FIELDS);
  const save = useSaveRecord(def, mode, back, { multipart: true, onFieldErrors: serverErrors.show });

  const submit = handleSubmit(async (values) => {
    serverErrors.clear();
    await save(profileBody(values, mode, code, pictureChanged));
  });

  const form: ProfileFormParts = {
    control,
    readOnly,
    errorOf: (name) => errorAt(formState.errors, name),
  };
  const title = formTitle(def, mode);
  return (
    <Box>
      <ScreenHeader title={title} back={back} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1080 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={title}>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            <GeneralErrors messages={serverErrors.general} />
            <PersonalDetails
              form={form}
              userEditable={mode === 'create'}
              pictureError={pictureError}
              onPictureChange={() => setPictureChanged(true)}
            />
            <Divider />
            <AddressFields form={form} setValue={setValue} />
            <Divider />
            <SocialLinks form={form} />
            <Divider />
            <Notifications form={form} />
            <SubmitRow hidden={readOnly} submitting={formState.isSubmitting} />
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}

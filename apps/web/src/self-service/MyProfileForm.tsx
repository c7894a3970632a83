import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ProfileRecord } from '@wfc/contract';
import { AddressFields } from '../registry/profile/AddressFields';
import { PictureCell } from '../registry/profile/PictureCell';
import { Section, TextCell } from '../registry/profile/ProfileLayout';
import { Notifications, SocialLinks } from '../registry/profile/SocialAndNotifications';
import { GeneralErrors } from '../registry/record/fieldErrors';
import { SaveFailureAlert } from '../registry/record/SaveFailure';
import { SubmitRow } from '../registry/record/SubmitRow';
import { UNSAVED_FORM_TEXT } from '../registry/record/unsaved';
import { DiscardDialog } from '../ui/DiscardDialog';
import { ScreenHeader } from '../ui/ScreenHeader';
import { MY_PROFILE_PATH } from './access';
import { ReadPart } from './ProfileParts';
import { personalEntries } from './profileEntries';
import { isSelfEditable, SELF_EDITABLE_TEXT } from './selfEditable';
import { PROFILE, useMyProfileForm } from './useMyProfileForm';

const TITLE = 'Edit my details';

/** Between the form's sections, as the registry's profile form draws them. */
const Rule = () => <Box role="separator" sx={{ borderTop: 1, borderColor: 'divider' }} />;

interface Props {
  record: ProfileRecord;
  picture: File | null;
  pictureError?: string;
}

/** The fields of their own profile a person may change; the rest is read above them. */
export function MyProfileForm({ record, picture, pictureError }: Props) {
  const f = useMyProfileForm(record, picture, pictureError);
  const { form } = f;
  return (
    <Box sx={{ maxWidth: 1080 }}>
      <ScreenHeader title={TITLE} subtitle={SELF_EDITABLE_TEXT} back={MY_PROFILE_PATH} />
      <Box sx={{ display: 'grid', gap: 2 }}>
        <ReadPart
          title="Kept by HR"
          entries={personalEntries(f.base ?? record).filter((e) => e.label !== 'Phone Number')}
        />
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Box component="form" noValidate onSubmit={f.submit} aria-label={TITLE}>
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
              {f.conflictPanel}
              <SaveFailureAlert
                def={PROFILE}
                mode="update"
                message={f.failed.failure}
                onDismiss={f.failed.clear}
              />
              <GeneralErrors messages={f.general} />
              <Section title="Picture and phone">
                {isSelfEditable('profilePicture') && (
                  <PictureCell
                    form={form}
                    pictureError={f.pictures.problem}
                    onPictureChange={f.pictures.markChanged}
                  />
                )}
                {isSelfEditable('phoneNumber') && (
                  <TextCell form={form} name="phoneNumber" label="Phone Number" kind="tel" />
                )}
              </Section>
              {isSelfEditable('address') && (
                <>
                  <Rule />
                  <AddressFields form={form} setValue={f.setValue} />
                </>
              )}
              {isSelfEditable('social') && (
                <>
                  <Rule />
                  <SocialLinks form={form} />
                </>
              )}
              {isSelfEditable('notification') && (
                <>
                  <Rule />
                  <Notifications form={form} />
                </>
              )}
              <SubmitRow submitting={f.submitting} />
            </Box>
          </Box>
        </Paper>
      </Box>
      <DiscardDialog
        open={f.guard.state === 'blocked'}
        text={UNSAVED_FORM_TEXT}
        onStay={() => f.guard.reset?.()}
        onDiscard={() => f.guard.proceed?.()}
      />
    </Box>
  );
}

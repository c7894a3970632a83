import { RESOURCE_BY_KEY } from '@wfc/contract';
import type { ComponentProps } from 'react';
import type { FormMode } from '../record/formValues';
import { type RecordFormProps, RecordScreen, RecordSkeleton } from '../record/RecordScreen';
import { useFreshForm } from '../record/useFreshForm';
import { ProfileEditor } from './ProfileEditor';
import { ProfileView } from './ProfileView';
import { PICTURE_FETCH_FAILED, useProfilePicture } from './useProfilePicture';

/** The profile's definition, by its own type: the screens hold profile records. */
export const PROFILE = RESOURCE_BY_KEY.profile;

/** The profile's screens: the definition cannot describe its picture and nested address. */
export function ProfileForm({ mode }: { mode: FormMode }) {
  return (
    <RecordScreen def={PROFILE} mode={mode}>
      {(props) => <WithPicture {...props} />}
    </RecordScreen>
  );
}

/** The view or form opens once the saved picture is in (or could not be fetched, which it then says). */
function WithPicture(props: RecordFormProps<typeof PROFILE>) {
  const profile = props.record;
  const picture = useProfilePicture(profile);
  if (profile?.profilePicture?.thumbnail && picture.isPending)
    return (
      <RecordSkeleton
        def={props.def}
        mode={props.mode}
        back={props.back}
        label="Loading the profile picture"
      />
    );
  const shown = {
    picture: picture.data ?? null,
    pictureError: picture.isError ? PICTURE_FETCH_FAILED : undefined,
  };
  return props.mode === 'view' ? (
    <ProfileView {...props} {...shown} />
  ) : (
    <FreshEditors {...props} {...shown} />
  );
}

/** A create form starts over, as a new form, after "Save and add another". */
function FreshEditors(props: ComponentProps<typeof ProfileEditor>) {
  const fresh = useFreshForm();
  return (
    <ProfileEditor
      key={fresh.round}
      {...props}
      onAnother={props.mode === 'create' ? fresh.startOver : undefined}
    />
  );
}

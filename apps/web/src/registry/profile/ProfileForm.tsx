import type { ProfileRecord, ResourceDef } from '@wfc/contract';
import type { FormMode } from '../formValues';
import { type RecordFormProps, RecordScreen, RecordSkeleton } from '../RecordScreen';
import { ProfileEditor } from './ProfileEditor';
import { PICTURE_FETCH_FAILED, useProfilePicture } from './useProfilePicture';

/** The profile's screens: the definition cannot describe its picture and nested address. */
export function ProfileForm({ def, mode }: { def: ResourceDef; mode: FormMode }) {
  return (
    <RecordScreen def={def} mode={mode}>
      {(props) => <WithPicture {...props} />}
    </RecordScreen>
  );
}

/** The form opens once the saved picture is in (or could not be fetched, which it then says). */
function WithPicture(props: RecordFormProps) {
  const profile = props.record as ProfileRecord | undefined;
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
  return (
    <ProfileEditor
      {...props}
      picture={picture.data ?? null}
      pictureError={picture.isError ? PICTURE_FETCH_FAILED : undefined}
    />
  );
}

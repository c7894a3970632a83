import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { failureOf } from '../api/retry';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import { FormSkeleton } from '../ui/Skeletons';
import { MY_PROFILE_PATH } from './access';
import { MyProfileForm } from './MyProfileForm';
import { useMyProfile } from './useMyProfile';

const FIELDS = ['picture', 'phone', 'line1', 'line2', 'country', 'linkedin'].map((name) => ({
  name,
  kind: 'text' as const,
}));

/** Opens the form once the profile and its saved picture are in (the form must hold a picture). */
export function MyProfileEditPage() {
  const { profile, picture, pictureError, pictureLoading } = useMyProfile();
  if (profile.data && !pictureLoading) {
    return <MyProfileForm record={profile.data} picture={picture} pictureError={pictureError} />;
  }
  return (
    <Box sx={{ maxWidth: 1080 }}>
      <ScreenHeader title="Edit my details" back={MY_PROFILE_PATH} />
      {profile.error ? (
        <RequestError {...failureOf(profile, 'Failed to fetch your profile')} />
      ) : profile.data === null ? (
        <Alert severity="info">You have no profile yet, so there is nothing to change.</Alert>
      ) : (
        <FormSkeleton label="Loading your profile" fields={FIELDS} submit maxWidth={1080} />
      )}
    </Box>
  );
}

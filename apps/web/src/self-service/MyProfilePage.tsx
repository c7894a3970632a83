import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { failureOf } from '../api/retry';
import { useCan } from '../auth/auth';
import { ExternalLink } from '../registry/record/ReadList';
import { PageHeading } from '../ui/PageHeading';
import { RequestError } from '../ui/RequestError';
import { FormSkeleton } from '../ui/Skeletons';
import { MY_PROFILE_EDIT_PATH } from './access';
import { Portrait, ReadPart } from './ProfileParts';
import {
  addressEntries,
  employmentEntries,
  notificationEntries,
  personalEntries,
  socialLinks,
} from './profileEntries';
import { SELF_EDITABLE_TEXT } from './selfEditable';
import { useMyProfile } from './useMyProfile';

const SKELETON = ['picture', 'first', 'last', 'phone', 'address'].map((name) => ({
  name,
  kind: 'text' as const,
}));

/** The signed-in person's profile and employee record, read; their own fields editable on the next screen. */
export function MyProfilePage() {
  const can = useCan();
  const { profile, employee, picture, pictureError, pictureLoading } = useMyProfile();
  const p = profile.data ?? null;
  const e = employee.data ?? null;
  const failed = profile.error ? profile : employee.error ? employee : null;
  const loading = (profile.isLoading || employee.isLoading || pictureLoading) && !failed;
  const editable = p !== null && can('UPDATE_PROFILE');
  const name = p ? `${p.firstName} ${p.lastName}` : (e?.name ?? '');
  return (
    <Box sx={{ maxWidth: 1080 }}>
      <PageHeading
        title="My profile"
        subtitle={editable ? SELF_EDITABLE_TEXT : 'Your details as the company keeps them.'}
        actions={
          editable && (
            <Button
              component={RouterLink}
              to={MY_PROFILE_EDIT_PATH}
              variant="contained"
              startIcon={<EditIcon />}
            >
              Edit my details
            </Button>
          )
        }
      />
      {failed ? (
        <RequestError {...failureOf(failed, 'Failed to fetch your profile')} />
      ) : loading ? (
        <FormSkeleton label="Loading your profile" fields={SKELETON} submit={false} maxWidth={1080} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 3, flexWrap: 'wrap' }}>
            <Portrait picture={picture} error={pictureError} initials={initialsOf(name)} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h2" component="p">
                {name}
              </Typography>
              {e && (
                <Typography color="text.secondary">{`${e.employeeId} · ${e.department.name}`}</Typography>
              )}
            </Box>
          </Box>
          {!p && (
            <Alert severity="info">
              You have no profile yet, so there is nothing here to read or change. Please ask HR or the system
              administrator to create it.
            </Alert>
          )}
          {p && <ReadPart title="Personal details" entries={personalEntries(p)} />}
          {e && <ReadPart title="Employment" entries={employmentEntries(e)} />}
          {p && <ReadPart title="Address" entries={addressEntries(p)} />}
          {p && (
            <ReadPart
              title="Social"
              entries={socialLinks(p).map((s) => ({ label: s.label, value: <ExternalLink href={s.href} /> }))}
            />
          )}
          {p && <ReadPart title="Notifications" entries={notificationEntries(p)} />}
        </Box>
      )}
    </Box>
  );
}

/** Up to two initials, for the placeholder of a missing picture. */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

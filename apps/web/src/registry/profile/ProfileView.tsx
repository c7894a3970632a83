import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { type ProfileRecord, RESOURCE_BY_KEY, type ResourceKey } from '@wfc/contract';
import { formatDate } from '../../ui/dates';
import { EMPTY_CELL } from '../format';
import { ReferenceLink } from '../ReferenceLink';
import { ExternalLink, type ReadEntry, ReadList, readText, yesNo } from '../record/ReadList';
import type { RecordFormProps } from '../record/RecordScreen';
import { ViewFrame } from '../record/ViewFrame';
import { referenceAt } from '../references';
import { usePreview } from './PictureDropzone';
import { NOTIFICATIONS, SOCIAL } from './profileValues';

interface Props extends RecordFormProps<typeof RESOURCE_BY_KEY.profile> {
  picture: File | null;
  pictureError?: string;
}

/** A reference the profile holds at `at` (`address.country`), named by the selectors' convention. */
const reference = (record: ProfileRecord | undefined, key: ResourceKey, at: string = key) => {
  const source = RESOURCE_BY_KEY[key];
  const held = referenceAt(record, source, `${at}.${source.code}`, `${at}.${source.nameField}`);
  return held ? <ReferenceLink reference={held} /> : EMPTY_CELL;
};

/** A profile as its view reads it, in the form's sections: the picture, the person, address, social, notifications. */
export function ProfileView({ picture, pictureError, ...props }: Props) {
  const p = props.record;
  const name = [p?.firstName, p?.lastName].filter(Boolean).join(' ');
  return (
    <ViewFrame {...props} name={name}>
      <ProfilePicture picture={picture} error={pictureError} />
      <Part title="Personal details" entries={personal(p)} />
      <Divider />
      <Part title="Address" entries={address(p)} />
      <Divider />
      <Part
        title="Social"
        entries={SOCIAL.map((s) => ({ label: s.label, value: <ExternalLink href={p?.social[s.name]} /> }))}
      />
      <Divider />
      <Part
        title="Notifications"
        entries={NOTIFICATIONS.map((n) => ({ label: n.label, value: yesNo(p?.notification[n.name]) }))}
      />
    </ViewFrame>
  );
}

const personal = (p: ProfileRecord | undefined): ReadEntry[] => [
  { label: 'First Name', value: readText(p?.firstName) },
  { label: 'Last Name', value: readText(p?.lastName) },
  { label: 'Date of Birth', value: p?.dob ? formatDate(p.dob) : EMPTY_CELL },
  {
    label: 'Gender',
    value: reference(p, 'gender'),
  },
  { label: 'Phone Number', value: readText(p?.phoneNumber) },
  { label: 'User', value: reference(p, 'user') },
];

const address = (p: ProfileRecord | undefined): ReadEntry[] => [
  { label: 'Address Line One', value: readText(p?.address.addressLineOne) },
  { label: 'Address Line Two', value: readText(p?.address.addressLineTwo) },
  { label: 'Country', value: reference(p, 'country', 'address.country') },
  { label: 'State', value: reference(p, 'state', 'address.state') },
  { label: 'City', value: reference(p, 'city', 'address.city') },
  { label: 'Postal Code', value: readText(p?.address.postalCode) },
];

function Part({ title, entries }: { title: string; entries: readonly ReadEntry[] }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <ReadList entries={entries} />
    </Box>
  );
}

/** The saved picture itself, or why it is missing. */
function ProfilePicture({ picture, error }: { picture: File | null; error?: string }) {
  const url = usePreview(picture);
  if (error) return <FormHelperText error>{error}</FormHelperText>;
  if (!url || !picture) return null;
  return (
    <Box
      component="img"
      src={url}
      alt={`Profile Picture: ${picture.name}`}
      sx={{
        width: 128,
        height: 128,
        objectFit: 'cover',
        borderRadius: '50%',
        border: 1,
        borderColor: 'divider',
      }}
    />
  );
}

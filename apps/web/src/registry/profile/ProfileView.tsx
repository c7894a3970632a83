import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { type ProfileRecord, RESOURCE_BY_KEY, type ResourceKey } from '@wfc/contract';
import type { ReactNode } from 'react';
import { formatDate } from '../../ui/dates';
import { HiddenValue } from '../../ui/HiddenValue';
import { EMPTY_CELL } from '../format';
import { ReferenceLink } from '../ReferenceLink';
import { ExternalLink, type ReadEntry, ReadList, readText, yesNo } from '../record/ReadList';
import type { RecordFormProps } from '../record/RecordScreen';
import { ViewFrame } from '../record/ViewFrame';
import { referenceAt } from '../references';
import { HiddenNote } from './HiddenParts';
import { usePreview } from './PictureDropzone';
import { type HiddenProfileField, hiddenProfileFields, NOTIFICATIONS, SOCIAL } from './profileValues';

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
  const hidden = hiddenProfileFields(p);
  const shown = (key: HiddenProfileField) => !hidden.includes(key);
  return (
    <ViewFrame {...props} name={name}>
      {shown('profilePicture') && <ProfilePicture picture={picture} error={pictureError} />}
      <Part title="Personal details" entries={personal(p, shown)} />
      <Divider />
      <Part title="Address" entries={shown('address') ? address(p) : undefined} />
      <Divider />
      <Part
        title="Social"
        entries={
          shown('social')
            ? SOCIAL.map((s) => ({ label: s.label, value: <ExternalLink href={p?.social?.[s.name]} /> }))
            : undefined
        }
      />
      <Divider />
      <Part
        title="Notifications"
        entries={
          shown('notification')
            ? NOTIFICATIONS.map((n) => ({ label: n.label, value: yesNo(p?.notification?.[n.name]) }))
            : undefined
        }
      />
    </ViewFrame>
  );
}

/** A field's value, or that it is hidden from the viewer: never a dash, which would say "empty". */
const orHidden = (isShown: boolean, value: () => ReactNode): ReactNode =>
  isShown ? value() : <HiddenValue />;

const personal = (p: ProfileRecord | undefined, shown: (key: HiddenProfileField) => boolean): ReadEntry[] => [
  // Where the picture is hidden, it is said among the fields: an empty space would look unfinished.
  ...(shown('profilePicture') ? [] : [{ label: 'Profile Picture', value: <HiddenValue />, wide: true }]),
  { label: 'First Name', value: readText(p?.firstName) },
  { label: 'Last Name', value: readText(p?.lastName) },
  {
    label: 'Date of Birth',
    value: orHidden(shown('dob'), () => (p?.dob ? formatDate(p.dob) : EMPTY_CELL)),
  },
  { label: 'Gender', value: orHidden(shown('genderCode'), () => reference(p, 'gender')) },
  { label: 'Phone Number', value: orHidden(shown('phoneNumber'), () => readText(p?.phoneNumber)) },
  { label: 'User', value: reference(p, 'user') },
];

const address = (p: ProfileRecord | undefined): ReadEntry[] => [
  { label: 'Address Line One', value: readText(p?.address?.addressLineOne) },
  { label: 'Address Line Two', value: readText(p?.address?.addressLineTwo) },
  { label: 'Country', value: reference(p, 'country', 'address.country') },
  { label: 'State', value: reference(p, 'state', 'address.state') },
  { label: 'City', value: reference(p, 'city', 'address.city') },
  { label: 'Postal Code', value: readText(p?.address?.postalCode) },
];

/** A titled part of the view; without entries, the part is hidden from the viewer and says so. */
function Part({ title, entries }: { title: string; entries?: readonly ReadEntry[] }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {entries ? <ReadList entries={entries} /> : <HiddenNote />}
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

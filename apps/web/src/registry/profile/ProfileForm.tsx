import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  PROFILE_PICTURE_REQUIRED,
  type ProfileRecord,
  RESOURCE_BY_KEY,
  type ResourceDef,
  type ResourceKey,
} from '@wfc/contract';
import { type ReactNode, useState } from 'react';
import { type Control, Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { api, assetUrl } from '../../api/client';
import { notify } from '../../ui/notify';
import { PageLoader } from '../../ui/PageLoader';
import type { FormMode } from '../formValues';
import { placeFieldErrors } from '../formValues';
import {
  bodyResolver,
  errorAt,
  formTitle,
  type RecordFormProps,
  RecordScreen,
  useSaveRecord,
} from '../RecordScreen';
import { type Option, ResourceSelect, type SelectParent } from '../ResourceSelect';
import { ScreenHeader } from '../ScreenHeader';
import { SubmitRow } from '../SubmitRow';
import { PictureDropzone } from './PictureDropzone';

export const PICTURE_FETCH_FAILED = 'Failed to fetch the file';

/** Form state mirrors the request body's keys, so schema and server errors land on their fields. */
export interface ProfileValues {
  firstName: string;
  lastName: string;
  profilePicture: File | null;
  dob: string;
  genderCode: Option | null;
  phoneNumber: string;
  userCode: Option | null;
  address: {
    addressLineOne: string;
    addressLineTwo: string;
    countryCode: Option | null;
    stateCode: Option | null;
    cityCode: Option | null;
    postalCode: string;
  };
  social: {
    linkedin: string;
    twitter: string;
    facebook: string;
    instagram: string;
    websitePortfolioUrl: string;
  };
  notification: { email: boolean; sms: boolean; push: boolean };
}

type Name = FieldPath<ProfileValues>;

const SOCIAL: { name: keyof ProfileValues['social']; label: string }[] = [
  { name: 'linkedin', label: 'LinkedIn' },
  { name: 'twitter', label: 'Twitter' },
  { name: 'facebook', label: 'Facebook' },
  { name: 'instagram', label: 'Instagram' },
  { name: 'websitePortfolioUrl', label: 'Website / Portfolio URL' },
];

const NOTIFICATIONS: { name: keyof ProfileValues['notification']; label: string }[] = [
  { name: 'email', label: 'Email' },
  { name: 'sms', label: 'SMS' },
  { name: 'push', label: 'Push' },
];

/** Every field a server error may name, as dotted body keys. */
const FIELD_NAMES: Name[] = [
  'firstName',
  'lastName',
  'profilePicture',
  'dob',
  'genderCode',
  'phoneNumber',
  'userCode',
  'address.addressLineOne',
  'address.addressLineTwo',
  'address.countryCode',
  'address.stateCode',
  'address.cityCode',
  'address.postalCode',
  ...SOCIAL.map((s) => `social.${s.name}` as Name),
  ...NOTIFICATIONS.map((n) => `notification.${n.name}` as Name),
];

const text = (v: string | null | undefined) => v ?? '';
const option = (value: string | undefined, label: string | undefined): Option | null =>
  value ? { value, label: label || value } : null;

export function initialProfileValues(record?: ProfileRecord, picture: File | null = null): ProfileValues {
  const a = record?.address;
  const s = record?.social;
  return {
    firstName: text(record?.firstName),
    lastName: text(record?.lastName),
    profilePicture: picture,
    dob: text(record?.dob),
    genderCode: option(record?.gender?.genderCode, record?.gender?.genderName),
    phoneNumber: text(record?.phoneNumber),
    userCode: option(record?.user?.userCode, record?.user?.username),
    address: {
      addressLineOne: text(a?.addressLineOne),
      addressLineTwo: text(a?.addressLineTwo),
      countryCode: option(a?.country?.countryCode, a?.country?.name),
      stateCode: option(a?.state?.stateCode, a?.state?.name),
      cityCode: option(a?.city?.cityCode, a?.city?.name),
      postalCode: text(a?.postalCode),
    },
    social: {
      linkedin: text(s?.linkedin),
      twitter: text(s?.twitter),
      facebook: text(s?.facebook),
      instagram: text(s?.instagram),
      websitePortfolioUrl: text(s?.websitePortfolioUrl),
    },
    notification: {
      email: record?.notification?.email ?? false,
      sms: record?.notification?.sms ?? false,
      push: record?.notification?.push ?? false,
    },
  };
}

/** The multipart body of CreateProfile / UpdateProfile, bracket keys made by the API client. */
export function profileBody(
  values: ProfileValues,
  mode: FormMode,
  profileCode: string,
  pictureChanged: boolean,
): Record<string, unknown> {
  const bool = (b: boolean) => (b ? 'true' : 'false');
  const sendPicture = mode === 'create' || pictureChanged;
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    ...(sendPicture && values.profilePicture ? { profilePicture: values.profilePicture } : {}),
    phoneNumber: values.phoneNumber,
    genderCode: values.genderCode?.value ?? '',
    dob: values.dob,
    address: {
      addressLineOne: values.address.addressLineOne,
      addressLineTwo: values.address.addressLineTwo,
      countryCode: values.address.countryCode?.value ?? '',
      stateCode: values.address.stateCode?.value ?? '',
      cityCode: values.address.cityCode?.value ?? '',
      postalCode: values.address.postalCode,
    },
    social: { ...values.social },
    notification: {
      email: bool(values.notification.email),
      sms: bool(values.notification.sms),
      push: bool(values.notification.push),
    },
    ...(mode === 'create'
      ? { userCode: values.userCode?.value ?? '' }
      : { profileCode, isProfilePictureChanged: bool(pictureChanged) }),
  };
}

/** The cascade's options: a country's states, a state's cities, as the definitions declare them. */
function subListEndpoint(parent: ResourceKey, child: ResourceKey): string {
  const sub = RESOURCE_BY_KEY[parent].subLists?.find((s) => s.resource === child);
  if (!sub) throw new Error(`No ${child} sub-list on ${parent}`);
  return sub.endpoint;
}

/** The saved picture's thumbnail, turned into a file so that an unchanged picture still counts as present. */
async function fetchPicture(profile: ProfileRecord): Promise<File> {
  const picture = profile.profilePicture!;
  const res = await fetch(assetUrl(picture.thumbnail), { credentials: 'include' });
  if (!res.ok) throw new Error(PICTURE_FETCH_FAILED);
  const blob = await res.blob();
  return new File([blob], picture.filename || 'profile-picture', { type: blob.type || 'image/webp' });
}

export function ProfileForm({ def, mode }: { def: ResourceDef; mode: FormMode }) {
  return (
    <RecordScreen def={def} mode={mode}>
      {(props) => <WithPicture {...props} />}
    </RecordScreen>
  );
}

function WithPicture(props: RecordFormProps) {
  const profile = props.record as ProfileRecord | undefined;
  const thumbnail = profile?.profilePicture?.thumbnail;
  const picture = useQuery({
    queryKey: ['registry', 'profile', 'picture', thumbnail],
    queryFn: async () => {
      try {
        return await fetchPicture(profile!);
      } catch (err) {
        notify.error(PICTURE_FETCH_FAILED);
        throw err;
      }
    },
    enabled: Boolean(thumbnail),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (thumbnail && picture.isPending) return <PageLoader label="Loading the profile picture" />;
  return (
    <ProfileEditor
      {...props}
      picture={picture.data ?? null}
      pictureError={picture.isError ? PICTURE_FETCH_FAILED : undefined}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Grid container spacing={2.5}>
        {children}
      </Grid>
    </Box>
  );
}

function Cell({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return <Grid size={{ xs: 12, md: wide ? 12 : 6 }}>{children}</Grid>;
}

function ProfileText({
  control,
  name,
  label,
  readOnly,
  error,
  type,
}: {
  control: Control<ProfileValues>;
  name: Name;
  label: string;
  readOnly: boolean;
  error?: string;
  type?: string;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          id={`profile-${name.replace('.', '-')}`}
          label={label}
          type={type}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          name={field.name}
          fullWidth
          error={Boolean(error)}
          helperText={error}
          slotProps={{
            input: { readOnly },
            inputLabel: type === 'date' || readOnly ? { shrink: true } : undefined,
          }}
        />
      )}
    />
  );
}

function ProfileSelect({
  control,
  name,
  label,
  source,
  disabled,
  parent,
  error,
  onPicked,
}: {
  control: Control<ProfileValues>;
  name: Name;
  label: string;
  source: ResourceKey;
  disabled: boolean;
  parent?: SelectParent;
  error?: string;
  onPicked?(changed: boolean): void;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <ResourceSelect
          source={RESOURCE_BY_KEY[source]}
          inputId={`profile-${name.replace('.', '-')}`}
          label={label}
          disabled={disabled}
          parent={parent}
          error={error}
          value={(field.value as Option | null) ?? null}
          onChange={(v) => {
            onPicked?.(v?.value !== (field.value as Option | null)?.value);
            field.onChange(v);
          }}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}

function ProfileEditor({
  def,
  mode,
  code,
  record,
  back,
  picture,
  pictureError,
}: RecordFormProps & { picture: File | null; pictureError?: string }) {
  const readOnly = mode === 'view';
  const save = useSaveRecord(def, mode, back);
  const [pictureChanged, setPictureChanged] = useState(false);
  const [generalErrors, setGeneralErrors] = useState<string[]>([]);
  const schema = mode === 'create' ? def.createSchema : mode === 'update' ? def.updateSchema : undefined;
  const { control, handleSubmit, setValue, setError, formState } = useForm<ProfileValues>({
    defaultValues: initialProfileValues(record as ProfileRecord | undefined, picture),
    resolver: schema
      ? bodyResolver<ProfileValues>(
          schema,
          (v) => profileBody(v, mode, code, pictureChanged),
          (v) =>
            v.profilePicture
              ? {}
              : { profilePicture: { type: 'required', message: PROFILE_PICTURE_REQUIRED } },
        )
      : undefined,
  });
  const country = useWatch({ control, name: 'address.countryCode' });
  const state = useWatch({ control, name: 'address.stateCode' });
  const err = (name: Name) => errorAt(formState.errors, name);

  const submit = handleSubmit(async (values) => {
    const endpoint = mode === 'create' ? def.endpoints.create : def.endpoints.update;
    if (!endpoint) return;
    setGeneralErrors([]);
    await save(
      () => api.postMultipart(endpoint, profileBody(values, mode, code, pictureChanged)),
      (errors) => {
        const { placed, unplaced } = placeFieldErrors(errors, FIELD_NAMES);
        for (const [name, message] of placed)
          setError(name as Name, { type: 'server', message }, { shouldFocus: true });
        setGeneralErrors(unplaced);
      },
    );
  });

  const title = formTitle(def, mode);
  return (
    <Box>
      <ScreenHeader title={title} back={back} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1080 }}>
        <Box component="form" noValidate onSubmit={submit} aria-label={title}>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            {generalErrors.length > 0 && (
              <Alert severity="error">
                {generalErrors.map((m) => (
                  <div key={m}>{m}</div>
                ))}
              </Alert>
            )}
            <Section title="Personal details">
              <Cell wide>
                <Controller
                  name="profilePicture"
                  control={control}
                  render={({ field }) => (
                    <PictureDropzone
                      id="profile-profilePicture"
                      label="Profile Picture"
                      value={field.value}
                      disabled={readOnly}
                      error={err('profilePicture') ?? pictureError}
                      onChange={(file) => {
                        setPictureChanged(true);
                        field.onChange(file);
                      }}
                    />
                  )}
                />
              </Cell>
              <Cell>
                <ProfileText
                  control={control}
                  name="firstName"
                  label="First Name"
                  readOnly={readOnly}
                  error={err('firstName')}
                />
              </Cell>
              <Cell>
                <ProfileText
                  control={control}
                  name="lastName"
                  label="Last Name"
                  readOnly={readOnly}
                  error={err('lastName')}
                />
              </Cell>
              <Cell>
                <ProfileText
                  control={control}
                  name="dob"
                  label="Date of Birth"
                  type="date"
                  readOnly={readOnly}
                  error={err('dob')}
                />
              </Cell>
              <Cell>
                <ProfileSelect
                  control={control}
                  name="genderCode"
                  label="Gender"
                  source="gender"
                  disabled={readOnly}
                  error={err('genderCode')}
                />
              </Cell>
              <Cell>
                <ProfileText
                  control={control}
                  name="phoneNumber"
                  label="Phone Number"
                  type="tel"
                  readOnly={readOnly}
                  error={err('phoneNumber')}
                />
              </Cell>
              <Cell>
                <ProfileSelect
                  control={control}
                  name="userCode"
                  label="User"
                  source="user"
                  // A profile belongs to its user for good: chosen on create only.
                  disabled={mode !== 'create'}
                  error={err('userCode')}
                />
              </Cell>
            </Section>
            <Divider />
            <Section title="Address">
              <Cell>
                <ProfileText
                  control={control}
                  name="address.addressLineOne"
                  label="Address Line One"
                  readOnly={readOnly}
                  error={err('address.addressLineOne')}
                />
              </Cell>
              <Cell>
                <ProfileText
                  control={control}
                  name="address.addressLineTwo"
                  label="Address Line Two"
                  readOnly={readOnly}
                  error={err('address.addressLineTwo')}
                />
              </Cell>
              <Cell>
                <ProfileSelect
                  control={control}
                  name="address.countryCode"
                  label="Country"
                  source="country"
                  disabled={readOnly}
                  error={err('address.countryCode')}
                  onPicked={(changed) => {
                    if (!changed) return;
                    setValue('address.stateCode', null);
                    setValue('address.cityCode', null);
                  }}
                />
              </Cell>
              {country?.value && (
                <Cell>
                  <ProfileSelect
                    control={control}
                    name="address.stateCode"
                    label="State"
                    source="state"
                    disabled={readOnly}
                    parent={{
                      endpoint: subListEndpoint('country', 'state'),
                      param: RESOURCE_BY_KEY.country.code,
                      value: country.value,
                    }}
                    error={err('address.stateCode')}
                    onPicked={(changed) => {
                      if (changed) setValue('address.cityCode', null);
                    }}
                  />
                </Cell>
              )}
              {country?.value && state?.value && (
                <Cell>
                  <ProfileSelect
                    control={control}
                    name="address.cityCode"
                    label="City"
                    source="city"
                    disabled={readOnly}
                    parent={{
                      endpoint: subListEndpoint('state', 'city'),
                      param: RESOURCE_BY_KEY.state.code,
                      value: state.value,
                    }}
                    error={err('address.cityCode')}
                  />
                </Cell>
              )}
              <Cell>
                <ProfileText
                  control={control}
                  name="address.postalCode"
                  label="Postal Code"
                  readOnly={readOnly}
                  error={err('address.postalCode')}
                />
              </Cell>
            </Section>
            <Divider />
            <Section title="Social">
              {SOCIAL.map((s) => (
                <Cell key={s.name}>
                  <ProfileText
                    control={control}
                    name={`social.${s.name}`}
                    label={s.label}
                    type="url"
                    readOnly={readOnly}
                    error={err(`social.${s.name}`)}
                  />
                </Cell>
              ))}
            </Section>
            <Divider />
            <Section title="Notifications">
              <Cell wide>
                <FormGroup row sx={{ columnGap: 3 }}>
                  {NOTIFICATIONS.map((n) => (
                    <Controller
                      key={n.name}
                      name={`notification.${n.name}`}
                      control={control}
                      render={({ field }) => (
                        <FormControlLabel
                          label={n.label}
                          control={
                            <Switch
                              checked={Boolean(field.value)}
                              onChange={(e) => field.onChange(e.target.checked)}
                              disabled={readOnly}
                              name={field.name}
                            />
                          }
                        />
                      )}
                    />
                  ))}
                </FormGroup>
              </Cell>
            </Section>
            <SubmitRow hidden={readOnly} submitting={formState.isSubmitting} />
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}

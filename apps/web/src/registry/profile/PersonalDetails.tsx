import { Controller } from 'react-hook-form';
import { useRequired } from '../record/fields/required';
import { PictureDropzone } from './PictureDropzone';
import { Cell, type ProfileFormParts, Section, SelectCell, TextCell } from './ProfileLayout';
import { profileInputId } from './profileValues';

interface Props {
  form: ProfileFormParts;
  /** Only a create form chooses the user: a profile belongs to its user for good. */
  userEditable: boolean;
  /** Why the saved picture is missing, when it could not be fetched. */
  pictureError?: string;
  onPictureChange(): void;
}

export function PersonalDetails({ form, userEditable, pictureError, onPictureChange }: Props) {
  const pictureRequired = useRequired('profilePicture');
  return (
    <Section title="Personal details">
      <Cell wide>
        <Controller
          name="profilePicture"
          control={form.control}
          render={({ field }) => (
            <PictureDropzone
              id={profileInputId('profilePicture')}
              label="Profile Picture"
              value={field.value}
              required={pictureRequired}
              error={form.errorOf('profilePicture') ?? pictureError}
              onChange={(file) => {
                onPictureChange();
                field.onChange(file);
              }}
            />
          )}
        />
      </Cell>
      <TextCell form={form} name="firstName" label="First Name" />
      <TextCell form={form} name="lastName" label="Last Name" />
      <TextCell form={form} name="dob" label="Date of Birth" kind="date" />
      <SelectCell form={form} name="genderCode" label="Gender" source="gender" />
      <TextCell form={form} name="phoneNumber" label="Phone Number" kind="tel" />
      <SelectCell form={form} name="userCode" label="User" source="user" disabled={!userEditable} />
    </Section>
  );
}

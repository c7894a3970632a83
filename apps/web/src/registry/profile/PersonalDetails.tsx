import { PictureCell } from './PictureCell';
import { type ProfileFormParts, Section, SelectCell, TextCell } from './ProfileLayout';

interface Props {
  form: ProfileFormParts;
  /** Only a create form chooses the user: a profile belongs to its user for good. */
  userEditable: boolean;
  /** Why the saved picture is missing, when it could not be fetched. */
  pictureError?: string;
  onPictureChange(): void;
}

export function PersonalDetails({ form, userEditable, pictureError, onPictureChange }: Props) {
  return (
    <Section title="Personal details">
      <PictureCell form={form} pictureError={pictureError} onPictureChange={onPictureChange} />
      <TextCell form={form} name="firstName" label="First Name" />
      <TextCell form={form} name="lastName" label="Last Name" />
      <TextCell form={form} name="dob" label="Date of Birth" kind="date" />
      <SelectCell form={form} name="genderCode" label="Gender" source="gender" />
      <TextCell form={form} name="phoneNumber" label="Phone Number" kind="tel" />
      <SelectCell form={form} name="userCode" label="User" source="user" disabled={!userEditable} />
    </Section>
  );
}

import { HiddenCell } from './HiddenParts';
import { PictureCell } from './PictureCell';
import { type ProfileFormParts, Section, SelectCell, TextCell } from './ProfileLayout';
import type { HiddenProfileField } from './profileValues';

interface Props {
  form: ProfileFormParts;
  /** Only a create form chooses the user: a profile belongs to its user for good. */
  userEditable: boolean;
  /** Why the saved picture is missing, when it could not be fetched. */
  pictureError?: string;
  onPictureChange(): void;
  /** Fields of the profile the user may not see: said hidden in their places, not editable. */
  hidden?: readonly HiddenProfileField[];
}

export function PersonalDetails({ form, userEditable, pictureError, onPictureChange, hidden = [] }: Props) {
  const shown = (key: HiddenProfileField) => !hidden.includes(key);
  return (
    <Section title="Personal details">
      <PictureCell
        form={form}
        pictureError={pictureError}
        onPictureChange={onPictureChange}
        hidden={!shown('profilePicture')}
      />
      <TextCell form={form} name="firstName" label="First Name" />
      <TextCell form={form} name="lastName" label="Last Name" />
      {shown('dob') ? (
        <TextCell form={form} name="dob" label="Date of Birth" kind="date" />
      ) : (
        <HiddenCell label="Date of Birth" />
      )}
      {shown('genderCode') ? (
        <SelectCell form={form} name="genderCode" label="Gender" source="gender" />
      ) : (
        <HiddenCell label="Gender" />
      )}
      {shown('phoneNumber') ? (
        <TextCell form={form} name="phoneNumber" label="Phone Number" kind="tel" />
      ) : (
        <HiddenCell label="Phone Number" />
      )}
      <SelectCell form={form} name="userCode" label="User" source="user" disabled={!userEditable} />
    </Section>
  );
}

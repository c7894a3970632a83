import { Controller } from 'react-hook-form';
import { useRequired } from '../record/fields/required';
import { HiddenCell } from './HiddenParts';
import { PictureDropzone } from './PictureDropzone';
import { Cell, type ProfileFormParts } from './ProfileLayout';
import { profileInputId } from './profileValues';

interface Props {
  form: ProfileFormParts;
  /** Why the saved picture is missing, when it could not be fetched. */
  pictureError?: string;
  /** The user picked another picture: an update sends the picture only then. */
  onPictureChange(): void;
  /** The picture is personal data the viewer may not see: it can be neither shown nor replaced. */
  hidden?: boolean;
}

/** The profile picture across the whole row, the registry's profile form and My profile alike. */
export function PictureCell({ form, pictureError, onPictureChange, hidden = false }: Props) {
  const required = useRequired('profilePicture');
  if (hidden) return <HiddenCell label="Profile Picture" wide />;
  return (
    <Cell wide>
      <Controller
        name="profilePicture"
        control={form.control}
        render={({ field }) => (
          <PictureDropzone
            id={profileInputId('profilePicture')}
            label="Profile Picture"
            value={field.value}
            required={required}
            error={form.errorOf('profilePicture') ?? pictureError}
            onChange={(file) => {
              onPictureChange();
              field.onChange(file);
            }}
          />
        )}
      />
    </Cell>
  );
}

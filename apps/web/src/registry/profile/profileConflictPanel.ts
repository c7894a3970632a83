import type { ProfileRecord } from '@wfc/contract';
import type { ReactNode } from 'react';
import { compareFields } from '../conflict/conflict';
import type { ConflictForm } from '../conflict/useConflictActions';
import {
  comparableProfile,
  comparedShown,
  hiddenProfileFields,
  initialProfileValues,
  type ProfileValues,
} from './profileValues';
import type { useSavedPicture } from './useSavedPicture';

type ProfileConflictForm = ConflictForm<ProfileValues, ProfileRecord>;

/**
 * The conflict panel of a profile form (the registry's and My profile's alike): the picture is
 * compared, taken and kept as the saved picture the form stands on, not as the record's thumbnail.
 * Fields the user may not see (need-to-know) are left out of the comparison.
 */
export function profileConflictPanel(
  panel: (form: ProfileConflictForm) => ReactNode,
  base: ProfileRecord | undefined,
  pictures: ReturnType<typeof useSavedPicture>,
  form: Omit<ProfileConflictForm, 'compare' | 'valuesOf' | 'onKeepMine'>,
): ReactNode {
  const { getValues } = form;
  // A field hidden from the user is absent from both records: it is no difference to show.
  const compared = comparedShown(hiddenProfileFields(base));
  return panel({
    ...form,
    busy: form.busy || pictures.loading,
    compare: (theirs) =>
      compareFields(
        compared,
        comparableProfile(initialProfileValues(base, pictures.savedFile), base),
        theirs ? comparableProfile(initialProfileValues(theirs), theirs) : {},
        comparableProfile(getValues(), base, pictures.changed ? getValues().profilePicture : null),
      ),
    valuesOf: async (theirs) => initialProfileValues(theirs, await pictures.takeTheirs(theirs)),
    onKeepMine: pictures.keepMine,
  });
}

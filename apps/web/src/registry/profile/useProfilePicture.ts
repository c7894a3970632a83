import { useQuery } from '@tanstack/react-query';
import type { ProfileRecord } from '@wfc/contract';
import { assetUrl } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { notify } from '../../ui/notify';

export const PICTURE_FETCH_FAILED = 'Failed to fetch the file';

/** The saved picture's thumbnail, turned into a file so that an unchanged picture still counts as present. */
export async function fetchPicture(picture: NonNullable<ProfileRecord['profilePicture']>): Promise<File> {
  const res = await fetch(assetUrl(picture.thumbnail), { credentials: 'include' });
  if (!res.ok) throw new Error(PICTURE_FETCH_FAILED);
  const blob = await res.blob();
  return new File([blob], picture.filename || 'profile-picture', { type: blob.type || 'image/webp' });
}

/** The profile's saved picture as a file; nothing is asked for a profile without one. */
export function useProfilePicture(profile: ProfileRecord | undefined) {
  const picture = profile?.profilePicture;
  return useQuery({
    queryKey: queryKeys.registry.profilePicture(picture?.thumbnail ?? ''),
    queryFn: async () => {
      try {
        return await fetchPicture(picture!);
      } catch (err) {
        notify.error(PICTURE_FETCH_FAILED);
        throw err;
      }
    },
    enabled: Boolean(picture?.thumbnail),
    // The form waits for the picture: a failure is told at once, and the form opens without it.
    retry: false,
    // A thumbnail URL carries the picture's version, so what it names never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

import { useQueryClient } from '@tanstack/react-query';
import type { ProfileRecord } from '@wfc/contract';
import { useState } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { notify } from '../../ui/notify';
import { fetchPicture, PICTURE_FETCH_FAILED } from './useProfilePicture';

/** The saved picture the form stands on: its thumbnail (which names its version) and its file. */
interface SavedPicture {
  thumbnail: string;
  file: File | null;
}

/**
 * The picture's side of the profile form: whether the user picked another one (an update re-sends
 * the picture only then), the saved picture the form stands on, and what a conflict's ways on do
 * to them.
 */
export function useSavedPicture(
  base: ProfileRecord | undefined,
  picture: File | null,
  pictureError?: string,
) {
  const [changed, setChanged] = useState(false);
  const [saved, setSaved] = useState<SavedPicture>({
    thumbnail: base?.profilePicture?.thumbnail ?? '',
    file: picture,
  });
  const [problem, setProblem] = useState(pictureError);
  const [loading, setLoading] = useState(false);
  const queryClient = useQueryClient();

  /** Their picture as a file: the one in hand when it is the same, else fetched (a failure is told). */
  const theirPicture = async (theirs: ProfileRecord): Promise<File | null> => {
    const p = theirs.profilePicture;
    if (!p) return null;
    if (p.thumbnail === saved.thumbnail && saved.file) return saved.file;
    try {
      const file = await queryClient.fetchQuery({
        queryKey: queryKeys.registry.profilePicture(p.thumbnail),
        queryFn: () => fetchPicture(p),
        staleTime: Number.POSITIVE_INFINITY,
      });
      setProblem(undefined);
      return file;
    } catch {
      notify.error(PICTURE_FETCH_FAILED);
      setProblem(PICTURE_FETCH_FAILED);
      return null;
    }
  };

  return {
    changed,
    /** Why the picture field shows no picture, when it could not be fetched. */
    problem,
    /** Their picture is on its way (Take theirs). */
    loading,
    savedFile: saved.file,
    markChanged: () => setChanged(true),
    /** Take theirs: their picture, fetched, is the saved one and no change of the user's. */
    takeTheirs: async (theirs: ProfileRecord) => {
      setLoading(true);
      const file = await theirPicture(theirs);
      setLoading(false);
      setSaved({ thumbnail: theirs.profilePicture?.thumbnail ?? '', file });
      setChanged(false);
      return file;
    },
    /** Keep mine: a picture the user picked is sent again; theirs is known only by its thumbnail. */
    keepMine: (theirs: ProfileRecord) =>
      setSaved({ thumbnail: theirs.profilePicture?.thumbnail ?? '', file: null }),
  };
}

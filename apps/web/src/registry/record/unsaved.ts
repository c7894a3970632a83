import { useEffect, useRef } from 'react';
import type { FieldValues, UseFormReset } from 'react-hook-form';

/** What the leave guard of a registry form says (the grid says it of scores). */
export const UNSAVED_FORM_TEXT = 'Some fields have been changed but not saved. Leaving now will lose them.';

/**
 * Puts values carried over from another screen (a deleted record's form) into a form that has just
 * opened, as the user's own unsaved edits: the defaults stay, so the form counts as changed and
 * its leave guard holds them.
 */
export function useApplyDraft<V extends FieldValues>(values: V | undefined, reset: UseFormReset<V>) {
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !values) return;
    applied.current = true;
    reset(values, { keepDefaultValues: true });
  }, [values, reset]);
}

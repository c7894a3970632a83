import type { ResourceDef } from '@wfc/contract';
import { useEffect, useState } from 'react';
import type { FieldValues, UseFormWatch } from 'react-hook-form';
import { FailureAlert } from '../../ui/FailureAlert';
import type { FormMode } from './formValues';

/**
 * A failed save, kept for the form to show above its fields until the user edits a field
 * (`watch` reports a change), submits again (`clear`) or dismisses it.
 */
export function useSaveFailure<V extends FieldValues>(watch: UseFormWatch<V>) {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const sub = watch((_values, { type }) => {
      if (type === 'change') setFailure(null);
    });
    return () => sub.unsubscribe();
  }, [watch]);
  return { failure, onFailed: setFailure, clear: () => setFailure(null) };
}

/** What failed (a create or an update of this module), why, and that nothing was saved. */
export function SaveFailureAlert({
  def,
  mode,
  message,
  onDismiss,
}: {
  def: ResourceDef;
  mode: FormMode;
  message: string | null;
  onDismiss(): void;
}) {
  if (!message) return null;
  const label = def.label.toLowerCase();
  return (
    <FailureAlert
      title={
        mode === 'create' ? `The ${label} was not created` : `Your changes to this ${label} were not saved`
      }
      message={message}
      outcome="Nothing was saved; what you entered is still in the form."
      onDismiss={onDismiss}
    />
  );
}

import Alert from '@mui/material/Alert';
import type { FieldError } from '@wfc/contract';
import { useState } from 'react';
import {
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  get,
  type UseFormSetError,
} from 'react-hook-form';
import { placeFieldErrors } from './formValues';

/** The first message at or under a (dotted) field name: a multi-select's errors are per item. */
export function errorAt(errors: FieldErrors<FieldValues>, name: string): string | undefined {
  const find = (e: unknown): string | undefined => {
    if (!e || typeof e !== 'object') return undefined;
    const msg = (e as { message?: unknown }).message;
    if (typeof msg === 'string' && msg) return msg;
    for (const v of Object.values(e)) {
      const m = find(v);
      if (m) return m;
    }
    return undefined;
  };
  return find(get(errors, name));
}

/**
 * A refusal's field errors, shown where the user looks: each beside the closest field the form
 * has (the first one focused), and those naming no field above the form.
 */
export function useServerFieldErrors<V extends FieldValues>(
  setError: UseFormSetError<V>,
  fieldNames: readonly string[],
) {
  const [general, setGeneral] = useState<string[]>([]);
  const show = (errors: readonly FieldError[]) => {
    const { placed, unplaced } = placeFieldErrors(errors, fieldNames);
    for (const [name, message] of placed)
      setError(name as FieldPath<V>, { type: 'server', message }, { shouldFocus: true });
    setGeneral(unplaced);
  };
  return { general, show, clear: () => setGeneral([]) };
}

/** Server errors that name no field of the form. */
export function GeneralErrors({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert severity="error">
      {messages.map((m) => (
        <div key={m}>{m}</div>
      ))}
    </Alert>
  );
}

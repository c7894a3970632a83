import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FieldError, ResourceDef } from '@wfc/contract';
import { useCallback } from 'react';
import { ApiError, api, errorMessage } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { notify } from '../ui/notify';
import { type StaleConflict, staleConflictOf, versionOf } from './conflict/conflict';
import { type BackTarget, useGoBack } from './paths';
import type { RegistryRecord } from './queries';
import type { FormMode } from './record/formValues';

/** After a write, every list, record and selector may show the changed names. */
export function useInvalidateRegistry() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.registry.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.options.all }),
    ]);
  }, [queryClient]);
}

export type RequestBody = Record<string, unknown>;

const ignore = () => undefined;

interface SaveOptions {
  /** The profile sends a picture, so its body goes as multipart/form-data. */
  multipart?: boolean;
  /** A refusal's field errors, for the form to show beside their fields. */
  onFieldErrors(errors: FieldError[]): void;
  /**
   * The record changed or was deleted since the form read it (the update named an old version):
   * the form shows what happened, in place of the error toast.
   */
  onConflict?(conflict: StaleConflict): void;
  /** Saved: called just before leaving for the back target (the form lets go of its leave guard). */
  onSaved?(): void;
  /** Saved with 'another' asked: called in place of leaving (a create form starts afresh). */
  onSavedForAnother?(): void;
  /**
   * Refused or failed (other than a stale version): the message the toast showed, for the form to
   * keep on screen after the toast has closed.
   */
  onFailed?(message: string): void;
}

/** After a successful save: leave for the back target, or stay for another record. */
export type AfterSave = 'back' | 'another';

/**
 * Sends a create or update. Success: the server's message as a toast, then the back target (or,
 * when asked for `another`, the form's `onSavedForAnother`).
 * A stale version: the conflict handed to the form. Other failures: the server's message (else
 * the module's default) as a toast, its field errors handed to the form, and the message too.
 *
 * The returned function settles once the outcome has been shown, and never rejects: the toast
 * is the report, and a form's isSubmitting then covers the whole save.
 */
export function useSaveRecord(
  def: ResourceDef,
  mode: FormMode,
  back: BackTarget | string,
  options: SaveOptions,
) {
  const goBack = useGoBack();
  const invalidate = useInvalidateRegistry();
  const endpoint =
    mode === 'create' ? def.endpoints.create : mode === 'update' ? def.endpoints.update : undefined;
  const { mutateAsync } = useMutation({
    mutationFn: ({ body }: { body: RequestBody; after: AfterSave }) => {
      if (!endpoint) throw new Error(`${def.label} has no ${mode} endpoint`);
      return options.multipart ? api.postMultipart(endpoint, body) : api.post(endpoint, body);
    },
    onSuccess: (res, { after }) => {
      notify.success(res.message || (mode === 'create' ? def.messages.created : def.messages.updated));
      void invalidate();
      options.onSaved?.();
      if (after === 'another' && options.onSavedForAnother) options.onSavedForAnother();
      else goBack(typeof back === 'string' ? { to: back } : back);
    },
    onError: (err) => {
      const conflict = staleConflictOf(err);
      if (conflict && options.onConflict) {
        // Lists and views show the record as it now stands.
        void invalidate();
        options.onConflict(conflict);
        return;
      }
      const message = errorMessage(
        err,
        mode === 'create' ? def.messages.failedCreate : def.messages.failedUpdate,
      );
      notify.error(message);
      if (err instanceof ApiError) options.onFieldErrors(err.errors ?? []);
      options.onFailed?.(message);
    },
  });
  return useCallback(
    // Enter in a view form's field submits it too; without an endpoint there is nothing to send.
    (body: RequestBody, after: AfterSave = 'back') =>
      endpoint ? mutateAsync({ body, after }).then(ignore, ignore) : Promise.resolve(),
    [endpoint, mutateAsync],
  );
}

/**
 * Deletes a record, naming the version it was read at. The success toast and `onDeleted` come
 * first; the mutation stays pending until the lists have been fetched again, so the confirmation
 * closes on the updated page. A stale version goes to `onConflict` (the lists are refreshed), any
 * other failure is a toast.
 */
export function useDeleteRecord(
  def: ResourceDef,
  onDeleted: () => void,
  onConflict?: (conflict: StaleConflict) => void,
) {
  const invalidate = useInvalidateRegistry();
  return useMutation({
    mutationFn: (record: RegistryRecord) => {
      if (!def.endpoints.delete) throw new Error(`${def.label} has no delete endpoint`);
      return api.post(def.endpoints.delete, { [def.code]: record[def.code], version: versionOf(record) });
    },
    onSuccess: async (res) => {
      notify.success(res.message || def.messages.deleted);
      onDeleted();
      await invalidate();
    },
    onError: async (err) => {
      const conflict = staleConflictOf(err);
      if (conflict && onConflict) {
        onConflict(conflict);
        await invalidate();
        return;
      }
      notify.error(errorMessage(err, def.messages.failedDelete));
    },
  });
}

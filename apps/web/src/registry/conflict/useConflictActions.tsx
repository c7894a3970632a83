import type { ResourceDef } from '@wfc/contract';
import { type ReactNode, useState } from 'react';
import type { FieldValues, UseFormGetValues, UseFormReset } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { stashDraft } from '../drafts';
import { type BackState, type BackTarget, createPath, useGoBack } from '../paths';
import type { RegistryRecord } from '../queries';
import { useRecordPermissions } from '../useRecordPermissions';
import { ConflictPanel } from './ConflictPanel';
import { type FieldChange, type StaleConflict, versionOf } from './conflict';

/** What a form lends the conflict panel's ways on, read as the panel renders. */
export interface ConflictForm<V extends FieldValues, R> {
  getValues: UseFormGetValues<V>;
  reset: UseFormReset<V>;
  /** The form is sending (or preparing their record): the panel's buttons wait. */
  busy: boolean;
  /** Field by field: as the form opened, as they saved it (null: deleted) and as the user has it. */
  compare(theirs: R | null): FieldChange[];
  /** Take theirs: the form's values on their record (the profile fetches their picture first). */
  valuesOf(theirs: R): V | Promise<V>;
  /** Keep mine: what else changes once the form stands on their record (the profile's saved picture). */
  onKeepMine?(theirs: R): void;
  /** Validates and sends the form as an update of `version`. */
  saveAt(version: number | undefined): () => Promise<void>;
  /** Drops the refused save's field errors. */
  clearErrors(): void;
  /** Lets the form be left without the unsaved-changes question. */
  releaseGuard(): void;
}

/**
 * The record a registry form stands on and the conflict its save may meet, with the ways on:
 * take theirs (their record loaded into the form), keep mine (the typed values saved again at
 * their version), create again (a deleted record: the create form with what was typed) and Back.
 * `onConflict` goes to the save; `panel` renders the conflict, when there is one, from the form.
 */
export function useConflictActions<R extends RegistryRecord>(
  def: ResourceDef,
  back: BackTarget,
  record: R | undefined,
) {
  // The record the form stands on: as opened, then theirs once the user takes it or saves over it.
  const [base, setBase] = useState(record);
  const [conflict, setConflict] = useState<StaleConflict | null>(null);
  const navigate = useNavigate();
  const goBack = useGoBack();
  const allowed = useRecordPermissions(def);

  function panel<V extends FieldValues>(form: ConflictForm<V, R>): ReactNode {
    if (!conflict) return null;
    const theirs = conflict.theirs as R | null;
    const takeTheirs = async () => {
      if (!theirs) return;
      const values = await form.valuesOf(theirs);
      setBase(theirs);
      form.reset(values);
      setConflict(null);
      form.clearErrors();
    };
    const keepMine = () => {
      if (!theirs) return;
      setBase(theirs);
      form.onKeepMine?.(theirs);
      setConflict(null);
      void form.saveAt(versionOf(theirs))();
    };
    const createAgain = () => {
      form.releaseGuard();
      const state: BackState = { back: back.to, draft: stashDraft(form.getValues()) };
      if (back.state) state.backState = back.state;
      navigate(createPath(def), { state });
    };
    return (
      <ConflictPanel
        label={def.label}
        conflict={conflict}
        changes={form.compare(theirs)}
        busy={form.busy}
        onTakeTheirs={() => void takeTheirs()}
        onKeepMine={keepMine}
        onCreateAgain={allowed.create ? createAgain : undefined}
        onGoBack={() => goBack(back)}
      />
    );
  }

  return { base, conflict, onConflict: setConflict, panel };
}

import { type FormFieldDef, holdsEveryPermission, scopeOf } from '@wfc/contract';
import { normalisePermissionName, permissionSet } from '@wfc/contract/permissions';
import { useMemo } from 'react';
import { useAuth } from '../../auth/auth';
import type { Option } from '../select/ResourceSelect';
import type { FormMode } from './formValues';
import { type ActorScope, type ScopeValues, scopeValues } from './scopeChoices';

/** Who is filling the form, as far as the delegation rules care. */
export interface Delegator {
  held: ReadonlySet<string>;
  /** Holds the whole catalogue: no delegation rule narrows anything. */
  everything: boolean;
  /** The record is the signed-in user's own. */
  ownRecord: boolean;
  /** How far the user holds a permission, by name. */
  scopeOf: ActorScope;
}

export function useDelegator(mode: FormMode, code: string): Delegator {
  const { user } = useAuth();
  return useMemo(() => {
    const held = permissionSet(user);
    return {
      held,
      everything: holdsEveryPermission(held),
      ownRecord: mode !== 'create' && Boolean(user) && code === user?.userCode,
      scopeOf: (name: string) => scopeOf(user, name),
    };
  }, [user, mode, code]);
}

export interface DelegatedField {
  /** The selector asks its list with this flag on. */
  listFlag?: string;
  locked: boolean;
  help?: string;
  isOptionDisabled?(option: Option): boolean;
  /** A scopes field: what the record held when opened, and how far the user holds each permission. */
  scopes?: { kept: ScopeValues; actor: ActorScope };
}

/**
 * What a field's delegation rules make of it in an editable form. Only a mirror of the server's
 * rules, so that the form offers nothing the server would refuse.
 */
export function delegatedField(field: FormFieldDef, who: Delegator, initial: unknown): DelegatedField {
  const rules = field.delegation;
  if (field.kind === 'scopes') {
    // Everyone is bound by their own scopes: the whole catalogue held for a team is not `all`.
    return {
      locked: false,
      help: rules?.heldOnly,
      scopes: { kept: scopeValues(initial), actor: who.scopeOf },
    };
  }
  if (!rules) return { locked: false };
  if (rules.offOnSelf && who.ownRecord) return { locked: true, help: rules.offOnSelf };
  if (rules.lockedOnSelf && who.ownRecord && !who.everything) {
    return { listFlag: rules.listFlag, locked: true, help: rules.lockedOnSelf };
  }
  if (rules.heldOnly && !who.everything) {
    // What the record already has may stay: the server refuses additions only.
    const kept = new Set((Array.isArray(initial) ? (initial as Option[]) : []).map((o) => o.value));
    return {
      listFlag: rules.listFlag,
      locked: false,
      help: rules.heldOnly,
      isOptionDisabled: (o) => !kept.has(o.value) && !who.held.has(normalisePermissionName(o.label)),
    };
  }
  return { listFlag: rules.listFlag, locked: false };
}

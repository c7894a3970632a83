import type { PermissionScope } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { comparable } from '../../src/registry/conflict/conflict';
import {
  chosenScopes,
  mayGiveScope,
  scopeChoices,
  scopeValues,
} from '../../src/registry/record/scopeChoices';

const held =
  (scopes: Record<string, PermissionScope>) =>
  (name: string): PermissionScope | null =>
    scopes[name] ?? null;
const opt = (value: string, label: string) => ({ value, label });

describe('scope choices', () => {
  it('lists only the chosen permissions that can be narrowed, each with the scopes it allows', () => {
    const choices = scopeChoices(
      [opt('P1', 'VIEW_EMPLOYEES'), opt('P2', 'VIEW_GENDERS'), opt('P3', 'DELETE_EMPLOYEE')],
      {},
      {},
      held({ VIEW_EMPLOYEES: 'all', DELETE_EMPLOYEE: 'all' }),
    );
    expect(choices.map((c) => [c.name, c.value, c.options.map((o) => o.scope)])).toEqual([
      ['VIEW_EMPLOYEES', 'all', ['all', 'team', 'own']],
      ['DELETE_EMPLOYEE', 'all', ['all', 'team']],
    ]);
  });

  it('starts a new permission at the widest scope the user may give, and disables wider ones', () => {
    const [choice] = scopeChoices([opt('P1', 'VIEW_EMPLOYEES')], {}, {}, held({ VIEW_EMPLOYEES: 'team' }));
    expect(choice?.value).toBe('team');
    expect(choice?.options.map((o) => [o.scope, o.disabled])).toEqual([
      ['all', true],
      ['team', false],
      ['own', false],
    ]);
  });

  it('keeps what the role already holds, however far the user holds it', () => {
    expect(mayGiveScope('VIEW_EMPLOYEES', 'P1', 'all', { P1: 'all' }, held({}))).toBe(true);
    expect(
      mayGiveScope('VIEW_EMPLOYEES', 'P1', 'all', { P1: 'team' }, held({ VIEW_EMPLOYEES: 'team' })),
    ).toBe(false);
    expect(mayGiveScope('VIEW_EMPLOYEES', 'P1', 'own', {}, held({}))).toBe(false);
  });

  it('takes the current scope when the permission allows it', () => {
    const [choice] = scopeChoices(
      [opt('P1', 'UPDATE_PERFORMANCE')],
      { P1: 'own' },
      {},
      held({ UPDATE_PERFORMANCE: 'all' }),
    );
    expect(choice?.value).toBe('all');
  });

  it('sends the scopes of the permissions still chosen, and reads only real scopes', () => {
    expect(chosenScopes({ P1: 'team', P2: 'own' }, [opt('P1', 'VIEW_EMPLOYEES')])).toEqual({ P1: 'team' });
    expect(chosenScopes({ P1: 'team' }, undefined)).toEqual({});
    expect(scopeValues({ P1: 'team', P2: 'everyone', P3: 3 })).toEqual({ P1: 'team' });
    expect(scopeValues(['team'])).toEqual({});
  });

  it('compares two maps of scopes whatever the order of their keys', () => {
    expect(comparable({ P2: 'own', P1: 'team' }).key).toBe(comparable({ P1: 'team', P2: 'own' }).key);
    expect(comparable({}).text).toBe('(empty)');
  });
});

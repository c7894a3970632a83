import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../src/scim/filter.ts';
import { pageOf, patchBody, pathKey } from '../../../src/scim/messages.ts';
import { ScimError, scimBoolean, toScimError } from '../../../src/scim/protocol.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

function refusal(run: () => unknown): ScimError {
  try {
    run();
  } catch (err) {
    if (err instanceof ScimError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('parseFilter', () => {
  it('reads the filters Okta and Microsoft Entra ID send', () => {
    expect(parseFilter('userName eq "jane.doe"')).toEqual({
      kind: 'compare',
      attribute: 'userName',
      op: 'eq',
      value: 'jane.doe',
    });
    expect(parseFilter('externalId eq "00u1\\"x"')).toMatchObject({ value: '00u1"x' });
    expect(parseFilter(`${USER}:userName EQ "a"`)).toMatchObject({ attribute: `${USER}:userName`, op: 'eq' });
  });

  it('binds and tighter than or, and reads parentheses, not and pr', () => {
    expect(parseFilter('title pr or userName eq "a" and active eq true')).toEqual({
      kind: 'or',
      left: { kind: 'present', attribute: 'title' },
      right: {
        kind: 'and',
        left: { kind: 'compare', attribute: 'userName', op: 'eq', value: 'a' },
        right: { kind: 'compare', attribute: 'active', op: 'eq', value: true },
      },
    });
    expect(parseFilter('not (active eq false)')).toEqual({
      kind: 'not',
      filter: { kind: 'compare', attribute: 'active', op: 'eq', value: false },
    });
  });

  it('refuses what it cannot read with invalidFilter', () => {
    for (const text of [
      'userName',
      'userName eq',
      'userName xx "a"',
      '"a" eq userName',
      'a eq "b" c',
      '(a eq "b"',
      'a eq "b',
    ]) {
      const e = refusal(() => parseFilter(text));
      expect([e.status, e.scimType], text).toEqual([400, 'invalidFilter']);
    }
    expect(refusal(() => parseFilter(`a eq "${'x'.repeat(1000)}"`)).scimType).toBe('invalidFilter');
  });
});

describe('messages', () => {
  it('pages from 1, at most 200 at a time', () => {
    expect(pageOf({})).toEqual({ filter: undefined, startIndex: 1, count: 200 });
    expect(pageOf({ startIndex: '0', count: '5000' })).toMatchObject({ startIndex: 1, count: 200 });
    expect(pageOf({ startIndex: '3', count: '0' })).toMatchObject({ startIndex: 3, count: 0 });
    expect(refusal(() => pageOf({ count: 'many' })).scimType).toBe('invalidValue');
  });

  it('reads PATCH operations in any case, and refuses a body that is not a PatchOp', () => {
    const ops = patchBody({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(ops).toEqual([{ op: 'replace', path: 'active', value: 'False' }]);
    expect(refusal(() => patchBody({ Operations: ops })).scimType).toBe('invalidSyntax');
    expect(
      refusal(() =>
        patchBody({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'move' }],
        }),
      ).scimType,
    ).toBe('invalidSyntax');
  });

  it('folds a path outside its quoted values', () => {
    expect(pathKey(`${USER}:Emails[Type eq "Work"].Value`, USER)).toBe('emails[type eq "Work"].value');
    expect(pathKey('members[value eq "USER-AB"]', USER)).toBe('members[value eq "USER-AB"]');
  });

  it("reads Entra's string booleans, and maps any refusal to a SCIM error", () => {
    expect([scimBoolean('False', 'active'), scimBoolean(true, 'active')]).toEqual([false, true]);
    expect(refusal(() => scimBoolean('no', 'active')).scimType).toBe('invalidValue');
    expect(toScimError(new Error('boom'))).toMatchObject({ status: 500, scimType: undefined });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff, scrub } from '../../../src/audit/diff.ts';

/** The changes between two records as an audit entry finds them: both scrubbed first. */
const diffOf = (before: unknown, after: unknown) => diff(scrub(before), scrub(after));

describe('audit diff', () => {
  it('lists each changed field with its old and new value, nested paths dotted', () => {
    const before = { roleName: 'Ops', role: { roleCode: 'ROLE-1', roleName: 'Ops' }, email: 'a@x.io' };
    const after = { roleName: 'Operations', role: { roleCode: 'ROLE-2', roleName: 'Ops' }, email: 'a@x.io' };
    expect(diffOf(before, after)).toEqual({
      roleName: { old: 'Ops', new: 'Operations' },
      'role.roleCode': { old: 'ROLE-1', new: 'ROLE-2' },
    });
  });

  it('treats a create as every field going from null, and a delete as the reverse', () => {
    expect(diffOf(null, { genderName: 'Female' })).toEqual({ genderName: { old: null, new: 'Female' } });
    expect(diffOf({ genderName: 'Female' }, undefined)).toEqual({ genderName: { old: 'Female', new: null } });
  });

  it('compares arrays whole', () => {
    expect(diffOf({ rolePermissions: ['A', 'B'] }, { rolePermissions: ['A', 'C'] })).toEqual({
      rolePermissions: { old: ['A', 'B'], new: ['A', 'C'] },
    });
    expect(diffOf({ rolePermissions: ['A'] }, { rolePermissions: ['A'] })).toEqual({});
  });

  it('leaves out timestamps, which change on every write', () => {
    const a = { name: 'x', createdAt: new Date(1), updatedAt: new Date(1) };
    const b = { name: 'x', createdAt: new Date(2), updatedAt: new Date(2) };
    expect(diffOf(a, b)).toEqual({});
  });

  it('never carries a password, its hash or a session id, at any depth', () => {
    const changes = diffOf(
      { user: { password: 'old-secret-1', passwordHash: '$argon2id$old', idHash: 'h1' }, token: 't1' },
      { user: { password: 'new-secret-1', passwordHash: '$argon2id$new', idHash: 'h2' }, token: 't2' },
    );
    expect(changes).toEqual({});
    expect(JSON.stringify(scrub({ a: [{ password: 'p' }], password_hash: 'h' }))).not.toMatch(/"p"|"h"/);
  });

  it('records a field that appears or disappears, and an emptied object', () => {
    expect(diffOf({ a: 1 }, { a: 1, b: 2 })).toEqual({ b: { old: null, new: 2 } });
    expect(diffOf({ social: { linkedin: 'u' } }, { social: {} })).toEqual({
      'social.linkedin': { old: 'u', new: null },
      social: { old: null, new: {} },
    });
  });

  it('turns dates into ISO text and values JSON cannot hold into strings', () => {
    expect(scrub({ at: new Date('2024-05-01T00:00:00Z'), n: 10n, u: undefined })).toEqual({
      at: '2024-05-01T00:00:00.000Z',
      n: '10',
    });
  });

  const record = fc.dictionary(
    fc.stringMatching(/^[a-z]{1,6}$/),
    fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    ),
    { maxKeys: 6 },
  );

  it('finds nothing between a record and itself', () => {
    fc.assert(
      fc.property(record, (r) => {
        expect(diffOf(r, structuredClone(r))).toEqual({});
      }),
    );
  });

  it('is symmetric: swapping before and after swaps old and new', () => {
    fc.assert(
      fc.property(record, record, (a, b) => {
        const forward = diffOf(a, b);
        const backward = diffOf(b, a);
        expect(Object.keys(backward).sort()).toEqual(Object.keys(forward).sort());
        for (const [k, v] of Object.entries(forward)) expect(backward[k]).toEqual({ old: v.new, new: v.old });
      }),
    );
  });

  it('applies: the new values of the diff turn the old record into the new one', () => {
    fc.assert(
      fc.property(record, record, (a, b) => {
        const patched: Record<string, unknown> = { ...a };
        for (const [k, v] of Object.entries(diffOf(a, b))) patched[k] = v.new;
        for (const k of Object.keys(patched)) if (patched[k] === null && !(k in b)) delete patched[k];
        const normalised = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== null));
        expect(Object.fromEntries(Object.entries(patched).filter(([, v]) => v !== null))).toEqual(normalised);
      }),
    );
  });
});

import { ERASED } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { fieldTexts, personalValues, redactFields, redactValues } from '../../../src/personal-data/erase.ts';

describe('what an erasure takes out of the audit log', () => {
  it("collects the texts of a person's personal columns, not their codes, numbers or flags", () => {
    const values = personalValues({
      users: [{ user_code: 'USER-1', username: 'ada', email: 'ada@example.com', role_code: 'ROLE-1' }],
      profiles: [{ first_name: 'Ada', phone_number: null, notify_email: true, user_code: 'USER-1' }],
      performance_scores: [{ performance_code: 'PERF-1', points: 7 }],
      unknown_table: [{ secret: 'kept' }],
    });
    expect([...values].sort()).toEqual(['Ada', 'ada', 'ada@example.com']);
  });

  it('replaces their values wherever they sit, and nothing else', () => {
    const values = new Set(['Ada Lovelace', 'ada@example.com']);
    expect(
      redactValues(
        { name: 'Ada Lovelace', managers: [{ code: 'EMP-1', name: 'Ada Lovelace' }], n: 3, other: 'Grace' },
        values,
      ),
    ).toEqual({ name: ERASED, managers: [{ code: 'EMP-1', name: ERASED }], n: 3, other: 'Grace' });
    expect(redactValues(null, values)).toBeNull();
  });

  it("erases a record's personal fields whatever they held, and finds what they held", () => {
    const fields = new Set(['email', 'address']);
    const changes = { email: { old: 'old@example.com', new: 'new@example.com' }, role: 'ROLE-2' };
    expect(redactFields(changes, fields)).toEqual({ email: ERASED, role: 'ROLE-2' });
    expect(redactFields({ email: null, address: { line: 'Lane 1' } }, fields)).toEqual({
      email: null,
      address: ERASED,
    });
    expect([...fieldTexts(changes, fields)].sort()).toEqual(['new@example.com', 'old@example.com']);
    expect([...fieldTexts({ address: { line: 'Lane 1', postal: ' ' }, role: 'x' }, fields)]).toEqual([
      'Lane 1',
    ]);
  });
});

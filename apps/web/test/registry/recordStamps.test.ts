import { describe, expect, it } from 'vitest';
import { formatCell } from '../../src/registry/format';
import { actorOf, recordStamps, stampText } from '../../src/registry/record/recordStamps';

const CREATED = '2026-03-03T14:05:00.000Z';
const UPDATED = '2026-11-20T09:12:00.000Z';
const when = (iso: string) => formatCell({ at: iso }, { path: 'at', label: '', format: 'datetime' });

describe('a record’s details', () => {
  it('says when it was created and last updated, and by whom', () => {
    const stamps = recordStamps(
      { createdAt: CREATED, updatedAt: UPDATED },
      { created: 'admin', updated: 'jdoe' },
    );
    expect(stamps.map(stampText)).toEqual([
      `Created ${when(CREATED)} by admin`,
      `Updated ${when(UPDATED)} by jdoe`,
    ]);
  });

  it('gives the times alone when nobody is known (seeded data, or no right to the audit log)', () => {
    expect(recordStamps({ createdAt: CREATED, updatedAt: UPDATED }).map(stampText)).toEqual([
      `Created ${when(CREATED)}`,
      `Updated ${when(UPDATED)}`,
    ]);
  });

  it('has no update to tell while the record is as created', () => {
    expect(
      recordStamps({ createdAt: CREATED, updatedAt: CREATED }, { created: 'admin' }).map(stampText),
    ).toEqual([`Created ${when(CREATED)} by admin`]);
    expect(recordStamps({ genderName: 'No times' })).toEqual([]);
  });

  it('reads the acting user of an audit entry', () => {
    expect(actorOf({ user: { userCode: 'USER-1', username: 'jdoe' } })).toBe('jdoe');
    expect(actorOf({ user: null })).toBeUndefined();
    expect(actorOf({ user: { userCode: null, username: null } })).toBeUndefined();
    expect(actorOf(undefined)).toBeUndefined();
  });
});

import { WEBHOOK_EVENT_TYPES } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, literalAddress } from '../../../src/webhooks/addresses.ts';
import {
  DEFAULT_DELIVERY_TIMING,
  nextAttemptAfterFailure,
  payloadFor,
  retryDelayMs,
} from '../../../src/webhooks/delivery.ts';
import { eventOf, eventsOfAudits, payloadOf } from '../../../src/webhooks/events.ts';

describe('the event an audit entry is', () => {
  it('maps a registry module’s create, update, delete and restore to {key}.created and so on', () => {
    expect(eventOf({ action: 'CREATE', collection: 'employees' })).toEqual({
      type: 'employee.created',
      module: 'employee',
    });
    expect(eventOf({ action: 'UPDATE', collection: 'users' })?.type).toBe('user.updated');
    expect(eventOf({ action: 'DELETE', collection: 'departments' })?.type).toBe('department.deleted');
    expect(eventOf({ action: 'RESTORE', collection: 'genders' })?.type).toBe('gender.restored');
    expect(eventOf({ action: 'IMPORT', collection: 'employees' })?.type).toBe('import.committed');
  });

  it('maps a performance save to performance.saved, and everything else to nothing', () => {
    expect(eventOf({ action: 'CREATE', collection: 'performances' })?.type).toBe('performance.saved');
    expect(eventOf({ action: 'UPDATE', collection: 'performances' })?.type).toBe('performance.saved');
    expect(eventOf({ action: 'LOGIN', collection: 'auth' })).toBeUndefined();
    expect(eventOf({ action: 'PURGE', collection: 'genders' })).toBeUndefined();
    expect(eventOf({ action: 'CREATE', collection: 'webhooks' })).toBeUndefined();
    expect(eventOf({ action: 'API_TOKEN_CREATED', collection: 'api tokens' })).toBeUndefined();
    expect(eventOf({ action: 'RETENTION_PURGE', collection: 'retention' })).toBeUndefined();
  });

  it('only ever names an event type a subscription can choose', () => {
    for (const collection of ['employees', 'users', 'roles', 'cities', 'performances']) {
      for (const action of ['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'IMPORT'] as const) {
        const type = eventOf({ action, collection })?.type;
        if (type) expect(WEBHOOK_EVENT_TYPES).toContain(type);
      }
    }
  });

  it('carries the record, or for a deletion its code only', () => {
    const actor = { userCode: 'USER-1', username: 'admin' };
    const [created, deleted, none] = [
      ...eventsOfAudits([
        { action: 'CREATE', collection: 'genders', recordCode: 'G-1', after: { genderName: 'x' }, actor },
        { action: 'DELETE', collection: 'genders', recordCode: 'G-1', after: null, actor: null },
        { action: 'LOGIN', collection: 'auth', recordCode: null, after: {}, actor },
      ]),
    ];
    expect(created).toEqual({
      type: 'gender.created',
      recordCode: 'G-1',
      actor,
      data: { module: 'gender', code: 'G-1', record: { genderName: 'x' } },
    });
    expect(deleted?.data).toEqual({ module: 'gender', code: 'G-1' });
    expect(none).toBeUndefined();
    const at = new Date('2026-11-27T12:00:00Z');
    expect(payloadOf(created!, 'msg_1', at)).toEqual({
      id: 'msg_1',
      type: 'gender.created',
      timestamp: '2026-11-27T12:00:00.000Z',
      actor,
      data: created?.data,
    });
  });

  it('leaves detail fields out of a record for a subscription without personal details', () => {
    const payload = {
      id: 'msg_1',
      type: 'user.created',
      timestamp: '2026-11-27T12:00:00.000Z',
      actor: null,
      data: {
        module: 'user',
        code: 'U-1',
        record: { userCode: 'U-1', username: 'ann', email: 'a@example.com' },
      },
    };
    expect(payloadFor(payload, false).data.record).toEqual({ userCode: 'U-1', username: 'ann' });
    expect(payloadFor(payload, true)).toBe(payload);
    const gender = { ...payload, data: { module: 'gender', record: { genderName: 'x' } } };
    expect(payloadFor(gender, false)).toEqual(gender);
  });
});

describe('the address guard', () => {
  it('allows public unicast addresses only', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2001:4860::8888]']) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });

  it('refuses private, loopback, link-local, unique-local, CGNAT, unspecified and other special ranges', () => {
    for (const a of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '2001:db8::1',
      'not an address',
      '',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('tells a literal address in a URL’s host from a name', () => {
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe('::ffff:7f00:1');
    expect(literalAddress(new URL('http://0x7f000001/').hostname)).toBe('127.0.0.1');
    expect(literalAddress('example.com')).toBeUndefined();
    expect(literalAddress('localhost')).toBeUndefined();
  });
});

describe('the retry schedule', () => {
  it('waits 30 s, 1 min, 2 min and so on, never more than an hour', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((n) => retryDelayMs(n, DEFAULT_DELIVERY_TIMING) / 1000);
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it('retries until a day after the delivery was queued, then fails it', () => {
    const queued = new Date('2026-11-27T00:00:00Z');
    const early = new Date('2026-11-27T00:01:00Z');
    expect(nextAttemptAfterFailure(1, queued, early, DEFAULT_DELIVERY_TIMING)).toEqual(
      new Date('2026-11-27T00:01:30Z'),
    );
    const late = new Date('2026-11-27T23:30:00Z');
    expect(nextAttemptAfterFailure(20, queued, late, DEFAULT_DELIVERY_TIMING)).toBeNull();
    const justIn = new Date('2026-11-27T22:59:59Z');
    expect(nextAttemptAfterFailure(20, queued, justIn, DEFAULT_DELIVERY_TIMING)).toEqual(
      new Date('2026-11-27T23:59:59Z'),
    );
    // Over a day, attempts stay about as many as the schedule makes: 8 ramping up, then hourly.
    let at = queued;
    let attempts = 0;
    for (;;) {
      attempts++;
      const next = nextAttemptAfterFailure(attempts, queued, at, DEFAULT_DELIVERY_TIMING);
      if (!next) break;
      at = next;
    }
    expect(attempts).toBeGreaterThan(25);
    expect(attempts).toBeLessThan(32);
  });
});

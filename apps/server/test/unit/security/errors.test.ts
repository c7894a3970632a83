import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/http/envelope.ts';
import { registerUniqueMessage, toApiError } from '../../../src/http/errors.ts';

/** Drizzle wraps the driver's error; the SQLSTATE sits one or more `cause` levels down. */
const wrapped = (inner: object, message = 'Failed query: select "password_hash" from "users"') =>
  Object.assign(new Error(message), { cause: Object.assign(new Error('driver'), inner) });

describe('error mapping', () => {
  it('keeps an ApiError as it is', () => {
    const e = new ApiError(404, 'Role not found');
    expect(toApiError(e)).toBe(e);
  });

  it('turns a schema failure into a 400 naming each field', () => {
    const parsed = z.object({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ b: {} });
    const api = toApiError(parsed.error);
    expect(api.statusCode).toBe(400);
    expect(api.errors?.map((e) => e.field)).toEqual(['a', 'b.c']);
  });

  it('maps a unique violation to 409 with the registered field and message', () => {
    registerUniqueMessage('things_name_unique', 'name', 'A thing with this name already exists');
    const api = toApiError(wrapped({ code: '23505', constraint: 'things_name_unique' }));
    expect(api).toMatchObject({ statusCode: 409, message: 'A thing with this name already exists' });
    expect(api.errors).toEqual([{ field: 'name', message: 'A thing with this name already exists' }]);
    expect(toApiError(wrapped({ code: '23505', constraint: 'unknown' })).statusCode).toBe(409);
    expect(toApiError(wrapped({ code: '23503' })).statusCode).toBe(409);
  });

  it('maps data PostgreSQL refuses to 400', () => {
    for (const code of ['22P02', '22007', '22008', '22003', '22001', '22021', '22P05']) {
      expect(toApiError(wrapped({ code })).statusCode, code).toBe(400);
    }
  });

  it('maps a lost or refused database connection to 503 with Retry-After, at any depth', () => {
    const cases = [
      wrapped({ code: '57P01' }),
      wrapped({ code: '57P03' }),
      wrapped({ code: 'ECONNREFUSED' }),
      Object.assign(new Error('outer'), { cause: wrapped({ code: '08006' }) }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('terminating connection due to administrator command'),
    ];
    for (const err of cases) {
      const api = toApiError(err);
      expect(api.statusCode, err.message).toBe(503);
      expect(api.headers).toEqual({ 'Retry-After': '5' });
    }
  });

  it('maps every class of "database unavailable" to 503 with Retry-After, as PostgreSQL and node-postgres report them', () => {
    const cases: [string, Error][] = [
      // What a server refusing a new connection sends (checked against a real server in
      // test/api/operations/unavailable.test.ts).
      ['55000', wrapped({ code: '55000', message: 'database "x" is not currently accepting connections' })],
      ['3D000', wrapped({ code: '3D000', message: 'database "x" does not exist' })],
      ['28P01', wrapped({ code: '28P01', message: 'password authentication failed for user "x"' })],
      ['28000', wrapped({ code: '28000', message: 'role "x" does not exist' })],
      ['53300', wrapped({ code: '53300', message: 'too many connections for role "x"' })],
      ['57P04', wrapped({ code: '57P04' })],
      ['57P05', wrapped({ code: '57P05' })],
      ['08P01', wrapped({ code: '08P01' })],
      ['57014', wrapped({ code: '57014', message: 'canceling statement due to statement timeout' })],
      ['ENOTFOUND', wrapped({ code: 'ENOTFOUND' })],
      ['EHOSTUNREACH', wrapped({ code: 'EHOSTUNREACH' })],
      ['starting up', new Error('the database system is starting up')],
    ];
    for (const [name, err] of cases) {
      const api = toApiError(err);
      expect(api.statusCode, name).toBe(503);
      expect(api.headers, name).toEqual({ 'Retry-After': '5' });
    }
  });

  it('keeps 55000 for anything but a closed database a 500: it is a general state error', () => {
    const api = toApiError(wrapped({ code: '55000', message: 'cannot cluster on partial index' }));
    expect(api.statusCode).toBe(500);
  });

  it('keeps the status of client errors raised by the framework, with fixed messages', () => {
    const fe = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });
    expect(toApiError(fe(413, 'FST_ERR_CTP_BODY_TOO_LARGE internals'))).toMatchObject({
      statusCode: 413,
      message: 'Request body is too large',
    });
    expect(toApiError(fe(415, 'Unsupported Media Type: text/plain'))).toMatchObject({
      statusCode: 415,
      message: 'Unsupported media type',
    });
    expect(toApiError(fe(400, 'Unexpected token } in JSON at position 12'))).toMatchObject({
      statusCode: 400,
      message: 'Malformed request',
    });
  });

  it('answers anything else with a 500 that says nothing of the cause', () => {
    for (const err of [wrapped({ code: '42P01' }), new TypeError('x is undefined'), 'thrown string', null]) {
      const api = toApiError(err);
      expect(api.statusCode).toBe(500);
      expect(api.message).toBe(DEFAULT_UNEXPECTED_MESSAGE);
      expect(api.errors).toBeUndefined();
    }
    expect(toApiError(Object.assign(new Error('boom'), { statusCode: 502 })).statusCode).toBe(500);
  });
});

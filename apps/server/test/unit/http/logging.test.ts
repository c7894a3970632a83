import { DrizzleQueryError } from 'drizzle-orm';
import fc from 'fast-check';
import { DatabaseError } from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  safeErrorMessage,
  safeLogging,
  serializeError,
  serializeRequest,
} from '../../../src/http/logging.ts';

/*
 * What a failed statement's log line keeps: its text, its SQLSTATE and the names of what refused
 * it; never its parameters or the failing row. The API test (api/security/logs.test.ts) sees the
 * whole log of real failures on both databases; here each driver's error shape is checked alone.
 */

const STATEMENT = 'insert into "users" ("username", "email", "password_hash") values ($1, $2, $3)';
const PARAMS = ['new.person', 'new.person@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'];

/** node-postgres's error for a failed CHECK, with the row in its detail, as Drizzle wraps it. */
function pgFailure(params: readonly unknown[] = PARAMS) {
  const cause = new DatabaseError(
    'new row for relation "users" violates check constraint "users_email"',
    0,
    'error',
  );
  Object.assign(cause, {
    severity: 'ERROR',
    code: '23514',
    detail: `Failing row contains (${params.join(', ')}).`,
    where: `PL/pgSQL function check_user() line 3 at RAISE, ${params[0]}`,
    hint: `look at ${params[1]}`,
    table: 'users',
    constraint: 'users_email',
    routine: 'ExecConstraints',
  });
  return new DrizzleQueryError(STATEMENT, [...params], cause);
}

/** PGlite's error: the same fields, and the statement with its parameters on the error itself. */
function pgliteFailure() {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    code: '23505',
    detail: `Key (email)=(${PARAMS[1]}) already exists.`,
    constraint: 'users_email_key',
    query: STATEMENT,
    params: PARAMS,
    queryOptions: { rowMode: 'object' },
  });
  return new DrizzleQueryError(STATEMENT, PARAMS, cause);
}

const text = (value: unknown) => JSON.stringify(value);

describe('a failed statement as a log line shows it', () => {
  it('keeps the statement, the SQLSTATE and what refused it; drops parameters, row and context (node-postgres)', () => {
    const line = serializeError(pgFailure());
    expect(line).toMatchObject({
      type: 'DrizzleQueryError',
      message: `Failed query: ${STATEMENT}`,
      query: STATEMENT,
      cause: {
        type: 'DatabaseError',
        message: 'new row for relation "users" violates check constraint "users_email"',
        code: '23514',
        severity: 'ERROR',
        table: 'users',
        constraint: 'users_email',
        routine: 'ExecConstraints',
      },
    });
    expect(line.stack.split('\n')[0]).toBe(`DrizzleQueryError: Failed query: ${STATEMENT}`);
    expect(line.stack).toMatch(/\n\s+at /);
    for (const value of [...PARAMS, 'new.person', 'Failing row', 'check_user']) {
      expect(text(line)).not.toContain(value);
    }
  });

  it('drops the parameters PGlite puts on its own error too', () => {
    const line = serializeError(pgliteFailure());
    expect(line.cause).toMatchObject({ code: '23505', constraint: 'users_email_key', query: STATEMENT });
    for (const value of PARAMS) expect(text(line)).not.toContain(value);
    expect(text(line)).not.toContain('rowMode');
  });

  it('never shows any parameter, whatever it holds (generated)', () => {
    const params = fc.array(
      fc.oneof(fc.string(), fc.emailAddress(), fc.uuid()).map((s) => `secret-${s}`),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(params, (values) => {
        expect(text(serializeError(pgFailure(values)))).not.toContain('secret-');
      }),
    );
  });

  it('cuts the value PostgreSQL quotes in a data error', () => {
    const err = Object.assign(new Error('invalid input syntax for type integer: "4111 1111 1111 1111"'), {
      code: '22P02',
    });
    expect(safeErrorMessage(err)).toBe('invalid input syntax for type integer');
    expect(text(serializeError(err))).not.toContain('4111');
  });

  it('follows causes and aggregated errors, a few levels deep, and shows what is not an error as text', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const line = serializeError(new AggregateError([inner], 'all failed'));
    expect(line.errors?.[0]).toMatchObject({ code: 'ECONNREFUSED' });
    let deep: Error = new Error('bottom');
    for (let i = 0; i < 10; i++) deep = new Error(`level ${i}`, { cause: deep });
    expect(text(serializeError(deep))).not.toContain('bottom');
    expect(serializeError('a string')).toEqual({ type: 'string', message: 'a string', stack: '' });
  });
});

describe('request lines and every other line', () => {
  it('show a request by method and path, without its query string', () => {
    expect(serializeRequest({ method: 'GET', url: '/api/oidc/callback?code=secret-code&state=s' })).toEqual({
      method: 'GET',
      url: '/api/oidc/callback',
    });
  });

  function capture() {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'trace', ...safeLogging },
      { write: (l: string) => void lines.push(JSON.parse(l)) },
    );
    return { logger, lines };
  }

  it('give an error logged as its own message its safe message', () => {
    const { logger, lines } = capture();
    const err = pgFailure();
    logger.error(err);
    logger.error({ err }, err.message);
    logger.error({ err }, 'request failed');
    expect(lines.map((l) => l.msg)).toEqual([
      `Failed query: ${STATEMENT}`,
      `Failed query: ${STATEMENT}`,
      'request failed',
    ]);
    for (const value of PARAMS) expect(text(lines)).not.toContain(value);
  });

  it('redact secret and personal fields, headers included, at the top and one level down', () => {
    const { logger, lines } = capture();
    logger.info({
      password: 'secret-1',
      user: { email: 'secret-2', passwordHash: 'secret-3', name: 'kept' },
      busboyOptions: { headers: { cookie: 'sid=secret-4', 'user-agent': 'secret-5' } },
      req: { method: 'GET', url: '/api/x' },
    });
    expect(text(lines)).not.toContain('secret-');
    expect(lines[0]).toMatchObject({ password: '[redacted]', user: { email: '[redacted]', name: 'kept' } });
  });
});

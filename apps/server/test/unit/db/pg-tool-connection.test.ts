import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pgToolConnection } from '../../../src/db/backup.ts';

/*
 * pg_dump and pg_restore are given the database on their command line, which every local user can
 * read (ps, /proc/PID/cmdline): the password must go through their environment instead.
 */

const SECRET = 'Planted-Secret-7f3a';

describe('how pg_dump and pg_restore are told where the database is', () => {
  it('names the database without its password, and hands the password over in PGPASSWORD', () => {
    const { args, env } = pgToolConnection(
      `postgres://console:${SECRET}@db.internal:6543/wfc?sslmode=require`,
    );
    expect(args).toEqual(['--dbname=postgres://console@db.internal:6543/wfc?sslmode=require']);
    expect(env).toEqual({ PGPASSWORD: SECRET });
  });

  it('decodes a percent-encoded password and leaves the rest of the URL as written', () => {
    const { args, env } = pgToolConnection(
      'postgresql://app%40corp:p%40ss%3Aw%2Ford%25@10.0.0.5/console?application_name=backup&options=-c%20statement_timeout%3D0',
    );
    expect(args).toEqual([
      '--dbname=postgresql://app%40corp@10.0.0.5/console?application_name=backup&options=-c%20statement_timeout%3D0',
    ]);
    expect(env).toEqual({ PGPASSWORD: 'p@ss:w/ord%' });
  });

  it('takes a password given as a query parameter out of the URL too', () => {
    const { args, env } = pgToolConnection(
      `postgres://console@db/wfc?sslmode=verify-full&password=${SECRET}`,
    );
    expect(args).toEqual(['--dbname=postgres://console@db/wfc?sslmode=verify-full']);
    expect(env).toEqual({ PGPASSWORD: SECRET });
    expect(pgToolConnection(`postgres://console@db/wfc?password=${SECRET}`).args).toEqual([
      '--dbname=postgres://console@db/wfc',
    ]);
  });

  it('sets no PGPASSWORD without a password, so a ~/.pgpass or the environment still applies', () => {
    expect(pgToolConnection('postgres://postgres@127.0.0.1:5432/test')).toEqual({
      args: ['--dbname=postgres://postgres@127.0.0.1:5432/test'],
      env: {},
    });
  });

  it('never puts any password on the command line (generated passwords)', () => {
    const password = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' });
    fc.assert(
      fc.property(password, fc.boolean(), (secret, inQuery) => {
        const encoded = encodeURIComponent(secret);
        const url = inQuery
          ? `postgres://console@db.internal:5432/wfc?password=${encoded}&sslmode=require`
          : `postgres://console:${encoded}@db.internal:5432/wfc?sslmode=require`;
        const { args, env } = pgToolConnection(url);
        expect(env.PGPASSWORD).toBe(secret);
        expect(args).toEqual(['--dbname=postgres://console@db.internal:5432/wfc?sslmode=require']);
      }),
    );
  });
});

import pg from 'pg';

/** Set on databases the generator creates, so that it never empties one it did not make. */
export const BENCH_MARKER = 'wfc benchmark data';
export const BENCH_ADMIN_PASSWORD = process.env.ADMIN_PASSWORD || 'bench-admin-password-1';

/** DATABASE_URL names the server; the benchmark works in its own database on it. */
export function benchUrl(database: string): string {
  const base = process.env.DATABASE_URL;
  if (!base) {
    throw new Error(
      'DATABASE_URL is required, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
    );
  }
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withServer<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** 'created' | 'ours' (made by the generator before) | 'foreign' | 'missing' */
export async function benchDatabaseState(database: string, create: boolean) {
  return withServer(async (c) => {
    const found = await c.query<{ comment: string | null }>(
      'select shobj_description(oid, $1) as comment from pg_database where datname = $2',
      ['pg_database', database],
    );
    if (found.rows.length === 0) {
      if (!create) return 'missing' as const;
      const name = c.escapeIdentifier(database);
      await c.query(`create database ${name}`);
      await c.query(`comment on database ${name} is ${c.escapeLiteral(BENCH_MARKER)}`);
      return 'created' as const;
    }
    return found.rows[0]!.comment === BENCH_MARKER ? ('ours' as const) : ('foreign' as const);
  });
}

import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/db/client.ts';

/** A multipart/form-data body written by hand, so tests control every byte of the file part. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { name?: string; filename: string; type: string; data: Buffer },
) {
  const boundary = `----wfc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'profilePicture'}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Every table's content but the session and throttle bookkeeping that any request may touch, and
 * the security events a refused request leaves (tested with the audit trail).
 */
export async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = (await db.execute(sql`select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not in ('sessions', 'login_throttle', 'schema_migrations') order by 1`)) as unknown as {
    rows: { name: string }[];
  };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const events = name === 'audits' ? sql`where t.collection <> 'security'` : sql``;
    const res = (await db.execute(
      sql`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${sql.identifier(name)} t ${events}`,
    )) as unknown as { rows: { n: number; h: string }[] };
    out[name] = `${res.rows[0]!.n}:${res.rows[0]!.h}`;
  }
  return out;
}

import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../support/app.ts';
import { postMultipart } from '../registry/support.ts';

/** A CSV file as a spreadsheet saves one: a header, then the rows, fields quoted where needed. */
export function csvOf(rows: readonly (readonly string[])[], sep = ','): Buffer {
  const field = (v: string) => (/[",;\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return Buffer.from(`${rows.map((r) => r.map(field).join(sep)).join('\r\n')}\r\n`);
}

/** `StartImport` with a file, as the console's wizard sends it. */
export function startImport(
  t: TestApp,
  cookie: string | undefined,
  fields: { module: string; mode?: string; mapping?: unknown; sheet?: string },
  file: { name: string; data: Buffer },
): Promise<LightMyRequestResponse> {
  const sent: Record<string, unknown> = { module: fields.module };
  if (fields.mode) sent.mode = fields.mode;
  if (fields.mapping !== undefined) sent.mapping = JSON.stringify(fields.mapping);
  if (fields.sheet) sent.sheet = fields.sheet;
  return postMultipart(
    t,
    'StartImport',
    sent,
    [{ name: file.name, data: file.data, field: 'file', type: 'text/csv' }],
    cookie,
  );
}

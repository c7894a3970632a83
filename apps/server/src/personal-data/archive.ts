import { PERSONAL_DATA_FILES } from '@wfc/contract';
import { strToU8, zipSync } from 'fflate';
import type { PersonalTable } from './catalogue.ts';
import type { Person } from './collect.ts';

type Row = Record<string, unknown>;

/** A stored file as the JSON names it: the path of its copy in the ZIP. */
interface FileRef {
  file: string;
}

export interface PersonalData {
  exportedAt: string;
  person: Person;
  /** Every catalogued table's rows about the person, by table name, columns as stored. */
  tables: Record<string, Row[]>;
}

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;

/**
 * Pure: the rows as JSON can hold them (times as ISO text, bytes as a reference to their file in
 * the ZIP), and the files. A file is named by its table, row and column; its extension is the
 * row's own `extension` where it has one.
 */
export function separateFiles(tables: Readonly<Record<string, Row[]>>) {
  const files: Record<string, Uint8Array> = {};
  const plain: Record<string, Row[]> = {};
  for (const [table, rows] of Object.entries(tables)) {
    plain[table] = rows.map((row, i) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]): [string, unknown] => {
          if (value instanceof Date) return [column, value.toISOString()];
          if (typeof value === 'bigint') return [column, value.toString()];
          if (!isBytes(value)) return [column, value];
          const extension = typeof row.extension === 'string' ? row.extension : 'bin';
          const name = `${PERSONAL_DATA_FILES.pictures}${table}-${i + 1}-${column}.${extension}`;
          files[name] = value;
          return [column, { file: name } satisfies FileRef];
        }),
      ),
    );
  }
  return { tables: plain, files };
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const isFileRef = (v: unknown): v is FileRef =>
  typeof v === 'object' && v !== null && typeof (v as Partial<FileRef>).file === 'string';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '<span class="none">–</span>';
  if (isFileRef(value)) {
    const href = escapeHtml(value.file);
    return /\.(jpe?g|png|webp)$/i.test(value.file)
      ? `<a href="${href}"><img src="${href}" alt="" height="96"></a>`
      : `<a href="${href}">${href}</a>`;
  }
  const text = typeof value === 'object' ? JSON.stringify(value, null, 1) : String(value);
  return typeof value === 'object' ? `<pre>${escapeHtml(text)}</pre>` : escapeHtml(text);
}

/** Pure: the readable page of the ZIP, one section per kind of record, the empty ones said so. */
export function summaryHtml(
  data: PersonalData,
  catalogue: Readonly<Record<string, Pick<PersonalTable, 'label'>>>,
): string {
  const who = data.person.username ?? data.person.employeeCodes.join(', ');
  const sections = Object.entries(data.tables).map(([table, rows]) => {
    const label = escapeHtml(catalogue[table]?.label ?? table);
    if (!rows.length) return `<section><h2>${label}</h2><p class="none">Nothing held.</p></section>`;
    const columns = Object.keys(rows[0] ?? {});
    const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
    const body = rows
      .map((row) => `<tr>${columns.map((c) => `<td>${cell(row[c])}</td>`).join('')}</tr>`)
      .join('\n');
    return `<section><h2>${label} (${rows.length})</h2><div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div></section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Personal data of ${escapeHtml(who)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1a1d1f}
h1{font-size:1.6rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:2px solid #009746;padding-bottom:.25rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #d5d9dc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f1f5f3}pre{margin:0;white-space:pre-wrap;max-width:40rem}.none{color:#6b7378}
</style></head><body>
<h1>Personal data of ${escapeHtml(who)}</h1>
<p>Everything the Workforce Console held about this person on ${escapeHtml(data.exportedAt)}. The same data, for
programs, is in <code>${PERSONAL_DATA_FILES.data}</code>; pictures are in <code>${PERSONAL_DATA_FILES.pictures}</code>.</p>
${sections.join('\n')}
</body></html>
`;
}

/** The ZIP: the JSON, the summary and the files. */
export function personalDataZip(
  data: PersonalData,
  catalogue: Readonly<Record<string, Pick<PersonalTable, 'label'>>>,
): Uint8Array {
  const { tables, files } = separateFiles(data.tables);
  const plain = { ...data, tables };
  return zipSync({
    [PERSONAL_DATA_FILES.data]: strToU8(JSON.stringify(plain, null, 2)),
    [PERSONAL_DATA_FILES.summary]: strToU8(summaryHtml(plain, catalogue)),
    ...files,
  });
}

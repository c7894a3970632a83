import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { BENCH_ADMIN_PASSWORD, benchDatabaseState, benchUrl } from './lib/database.ts';
import { placeholderWebDist, type RunningServer, sampleMax, startServer } from './lib/server.ts';

/*
 * Imports against PostgreSQL's own COPY (docs/performance.md, "Imports"): the same rows loaded
 * into the same tables by COPY in one transaction (rolled back), then previewed and committed
 * through the running server. Reports the ratio, the server's memory growth and the slowest
 * /api/health answer during the import. Works in its own database, made afresh each run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -w @wfc/server -- --only imports
 *
 * BENCH_IMPORT_EMPLOYEES (2,500) x BENCH_IMPORT_DAYS (20) score rows of 20 skills, and
 * BENCH_IMPORT_PEOPLE (50,000) employees; BENCH_IMPORT_ONLY (`scores` or `employees`) runs one.
 */

const DATABASE = process.env.BENCH_IMPORT_DATABASE ?? 'wfc_bench_imports';
const EMPLOYEES = Number(process.env.BENCH_IMPORT_EMPLOYEES ?? 2500);
const DAYS = Number(process.env.BENCH_IMPORT_DAYS ?? 20);
const PEOPLE = Number(process.env.BENCH_IMPORT_PEOPLE ?? 50_000);
const ONLY = process.env.BENCH_IMPORT_ONLY;
const SKILLS = 20;
const DEPARTMENTS = 20;
const PORT = process.env.BENCH_PORT ?? '3918';
const MB = 1024 * 1024;

const dir = mkdtempSync(path.join(tmpdir(), 'wfc-bench-imports-'));

const pad = (n: number, w: number) => String(n).padStart(w, '0');

async function prepare() {
  const state = await benchDatabaseState(DATABASE, true);
  if (state === 'foreign') throw new Error(`${DATABASE} exists and was not made by the benchmark`);
  if (state === 'ours') {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database ${admin.escapeIdentifier(DATABASE)} with (force)`);
    await admin.end();
    await benchDatabaseState(DATABASE, true);
  }
}

/** Skills, departments, the employees scored and the users new employees name. */
async function seed(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(
    `insert into skills (skill_code, title) select 'SKILL-B' || lpad(g::text, 4, '0'), 'Skill ' || g from generate_series(1, $1) g`,
    [SKILLS],
  );
  await c.query(
    `insert into departments (department_code, name) select 'DEPT-B' || lpad(g::text, 4, '0'), 'Department ' || g from generate_series(1, $1) g`,
    [DEPARTMENTS],
  );
  await c.query(
    `insert into employees (employee_code, employee_id, name, department_code, join_date)
     select 'EMP-B' || lpad(g::text, 6, '0'), 'S' || lpad(g::text, 6, '0'), 'Scored ' || g,
            'DEPT-B' || lpad((1 + g % $2)::text, 4, '0'), date '2020-01-01'
     from generate_series(1, $1) g`,
    [EMPLOYEES, DEPARTMENTS],
  );
  const [role] = (await c.query<{ role_code: string }>(`select role_code from roles limit 1`)).rows;
  await c.query(
    `insert into users (user_code, username, email, password_hash, role_code)
     select 'USER-B' || lpad(g::text, 6, '0'), 'person' || g, 'person' || g || '@example.com', 'x', $2
     from generate_series(1, $1) g`,
    [PEOPLE, role?.role_code],
  );
  await c.query('analyze');
  await c.end();
}

/** The score file: one row per employee and day, a column per skill (wide). */
function scoreFile(): { csv: string; performances: string; scores: string } {
  const header = ['Employee Id', 'Date', ...Array.from({ length: SKILLS }, (_, i) => `Skill ${i + 1}`)];
  const lines = [header.join(',')];
  const perf: string[] = [];
  const cells: string[] = [];
  for (let d = 0; d < DAYS; d++) {
    const date = `1990-01-${pad(d + 1, 2)}`;
    for (let e = 1; e <= EMPLOYEES; e++) {
      const scores = Array.from({ length: SKILLS }, (_, s) => String((e + d + s) % 11));
      lines.push([`S${pad(e, 6)}`, date, ...scores].join(','));
      const code = `PERF-B${pad(d, 2)}${pad(e, 6)}`;
      perf.push([code, `EMP-B${pad(e, 6)}`, date].join('\t'));
      for (const [s, p] of scores.entries()) cells.push([code, `SKILL-B${pad(s + 1, 4)}`, p].join('\t'));
    }
  }
  return {
    csv: `${lines.join('\n')}\n`,
    performances: `${perf.join('\n')}\n`,
    scores: `${cells.join('\n')}\n`,
  };
}

/** The employee file: departments by name, users by username. */
function employeeFile(): { csv: string; rows: string } {
  const lines = ['Employee Id,Name,Department,Join Date,User'];
  const rows: string[] = [];
  for (let i = 1; i <= PEOPLE; i++) {
    const dept = 1 + (i % DEPARTMENTS);
    lines.push(
      [`N${pad(i, 6)}`, `New Person ${i}`, `Department ${dept}`, '2024-02-01', `person${i}`].join(','),
    );
    rows.push(
      [
        `EMP-N${pad(i, 6)}`,
        `N${pad(i, 6)}`,
        `New Person ${i}`,
        `DEPT-B${pad(dept, 4)}`,
        '2024-02-01',
        `USER-B${pad(i, 6)}`,
      ].join('\t'),
    );
  }
  return { csv: `${lines.join('\n')}\n`, rows: `${rows.join('\n')}\n` };
}

/** COPY of the given files into their tables in one transaction, rolled back: seconds it took. */
function copySeconds(url: string, loads: { table: string; file: string }[]): number {
  const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', 'begin'];
  for (const l of loads) args.push('-c', `\\copy ${l.table} from '${l.file}'`);
  args.push('-c', 'rollback');
  const started = performance.now();
  const run = spawnSync('psql', args, { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`COPY failed: ${run.stderr}`);
  return seconds;
}

async function signIn(server: RunningServer) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((c) => /sid=/.test(c));
  if (!cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie.split(';')[0] as string;
}

interface ImportAnswer {
  status: string;
  importCode: string;
  counts: Record<string, number>;
  message: string | null;
  errors: unknown[];
}

async function call(
  server: RunningServer,
  cookie: string,
  endpoint: string,
  body: unknown,
): Promise<ImportAnswer> {
  const res = await fetch(`${server.url}/api/${endpoint}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: ImportAnswer; message: string };
  if (!json.data) throw new Error(`${endpoint}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return json.data;
}

async function until(
  server: RunningServer,
  cookie: string,
  code: string,
  busy: string,
): Promise<ImportAnswer> {
  for (;;) {
    const now = await call(server, cookie, 'GetImportByCode', { importCode: code });
    if (now.status !== busy) return now;
    await sleep(100);
  }
}

/** Previews and commits a file through the server: seconds for each, the memory growth and the slowest health answer. */
async function importThrough(server: RunningServer, cookie: string, module: string, csv: string) {
  const rssBefore = server.rss();
  const rss = sampleMax(() => server.rss(), 50);
  let slowest = 0;
  let slowestInPreview = 0;
  let previewed: number | undefined;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t0 = performance.now();
      await fetch(`${server.url}/api/health`);
      const took = performance.now() - t0;
      slowest = Math.max(slowest, took);
      if (previewed === undefined) slowestInPreview = Math.max(slowestInPreview, took);
      await sleep(50);
    }
  })();
  const started = performance.now();
  const form = new FormData();
  form.append('module', module);
  form.append('mode', 'create');
  form.append('file', new Blob([csv], { type: 'text/csv' }), `${module}.csv`);
  const res = await fetch(`${server.url}/api/StartImport`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  const first = ((await res.json()) as { data?: ImportAnswer }).data;
  if (!first) throw new Error(`StartImport: ${res.status}`);
  const checked =
    first.status === 'checking' ? await until(server, cookie, first.importCode, 'checking') : first;
  previewed = performance.now();
  if (checked.status !== 'ready' || checked.counts.errors) {
    throw new Error(
      `preview: ${checked.status} ${checked.message} ${JSON.stringify(checked.errors.slice(0, 3))}`,
    );
  }
  const commit = await call(server, cookie, 'CommitImport', { importCode: checked.importCode });
  const done =
    commit.status === 'committing' ? await until(server, cookie, commit.importCode, 'committing') : commit;
  const committed = performance.now();
  probing = false;
  await probe;
  if (done.status !== 'committed') throw new Error(`commit: ${done.status} ${done.message}`);
  return {
    preview: (previewed - started) / 1000,
    commit: (committed - previewed) / 1000,
    total: (committed - started) / 1000,
    memory: (rss.stop() - rssBefore) / MB,
    slowestHealth: slowest,
    slowestInPreview,
    counts: done.counts,
  };
}

export async function benchImports() {
  await prepare();
  const url = benchUrl(DATABASE);
  const server = await startServer(
    {
      DATABASE_URL: url,
      PORT,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      WEB_DIST: placeholderWebDist(),
    },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  try {
    await seed(url);
    const cookie = await signIn(server);
    const scores = scoreFile();
    writeFileSync(path.join(dir, 'performances.tsv'), scores.performances);
    writeFileSync(path.join(dir, 'scores.tsv'), scores.scores);
    const people = employeeFile();
    writeFileSync(path.join(dir, 'employees.tsv'), people.rows);

    const scoreCase: ImportCase = {
      name: `Scores: ${(EMPLOYEES * DAYS * SKILLS).toLocaleString('en')} cells (${(EMPLOYEES * DAYS).toLocaleString('en')} rows)`,
      module: 'performance',
      csv: scores.csv,
      loads: [
        { table: 'performances (performance_code, employee_code, date)', file: 'performances.tsv' },
        { table: 'performance_scores (performance_code, skill_code, points)', file: 'scores.tsv' },
      ],
      target: 3,
    };
    const employeeCase: ImportCase = {
      name: `Employees: ${PEOPLE.toLocaleString('en')} (departments by name, users by username)`,
      module: 'employee',
      csv: people.csv,
      loads: [
        {
          table: 'employees (employee_code, employee_id, name, department_code, join_date, user_code)',
          file: 'employees.tsv',
        },
      ],
      target: 5,
    };
    if (ONLY !== 'employees') await benchCase(server, url, cookie, scoreCase);
    if (ONLY !== 'scores') await benchCase(server, url, cookie, employeeCase);
  } catch (err) {
    console.error(`The server said:\n${server.output()}`);
    throw err;
  } finally {
    await server.stop();
  }
}

/** A file imported through the server, measured against COPY of the same rows (files in `dir`). */
interface ImportCase {
  name: string;
  module: string;
  csv: string;
  loads: { table: string; file: string }[];
  /** The most the import may take, in times the COPY. */
  target: number;
}

async function benchCase(server: RunningServer, url: string, cookie: string, c: ImportCase) {
  const copy = copySeconds(
    url,
    c.loads.map((l) => ({ table: l.table, file: path.join(dir, l.file) })),
  );
  report(c.name, copy, await importThrough(server, cookie, c.module, c.csv), c.target);
}

function report(name: string, copy: number, r: Awaited<ReturnType<typeof importThrough>>, target: number) {
  const ratio = r.total / copy;
  console.log(
    `${name}: COPY ${copy.toFixed(2)} s; import ${r.total.toFixed(2)} s (preview ${r.preview.toFixed(2)} s, ` +
      `commit ${r.commit.toFixed(2)} s) = ${ratio.toFixed(1)}x COPY (target <= ${target}x: ${ratio <= target ? 'met' : 'not met'}); ` +
      `server memory +${r.memory.toFixed(0)} MB (target < 300: ${r.memory < 300 ? 'met' : 'not met'}); ` +
      `slowest /api/health ${r.slowestHealth.toFixed(0)} ms (target <= 100: ${r.slowestHealth <= 100 ? 'met' : 'not met'}; ` +
      `${r.slowestInPreview.toFixed(0)} ms in the preview); ` +
      `counts ${JSON.stringify(r.counts)}`,
  );
}

import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  call,
  createDatabase,
  ensurePostgresRunning,
  log,
  login,
  percentile,
  type ServerProcess,
  sleep,
  startServer,
  type TestDatabase,
} from '../load/harness.ts';

/**
 * `npm run test:faults`: what happens to the real server when things go wrong.
 *  1. PostgreSQL restarts under load: answers stay 200 or a quick 503, and service resumes
 *     without restarting the server.
 *  2. The server is killed (SIGKILL) in the middle of bulk saves: each is all or nothing.
 *  3. SIGTERM lets in-flight requests finish, refuses new ones, and never waits forever.
 * It restarts the machine's PostgreSQL cluster, and always leaves it running.
 */
const PASSWORD = 'fault-password-1';
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
const execFileAsync = promisify(execFile);

interface Outcome {
  at: number;
  ms: number;
  status: number | 'error' | 'timeout';
  kind: string;
  name?: string;
  retryAfter?: string | null;
}

async function timed(
  kind: string,
  started: number,
  run: () => Promise<Response>,
  name?: string,
): Promise<Outcome> {
  const t0 = Date.now();
  try {
    const res = await run();
    await res.arrayBuffer();
    return {
      at: t0 - started,
      ms: Date.now() - t0,
      status: res.status,
      kind,
      name,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    return { at: t0 - started, ms: Date.now() - t0, status: timeout ? 'timeout' : 'error', kind, name };
  }
}

async function postgresRestartUnderLoad(db: TestDatabase) {
  log('--- 1. PostgreSQL restarted under load');
  const server = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD });
  try {
    const cookie = await login(server.url, 'admin', PASSWORD);
    const started = Date.now();
    const RUN_MS = 30_000;
    const outcomes: Outcome[] = [];
    let serial = 0;
    const worker = async () => {
      while (Date.now() - started < RUN_MS) {
        const n = ++serial;
        const signal = AbortSignal.timeout(20_000);
        if (n % 3 === 0) {
          const name = `fault-dept-${n}`;
          outcomes.push(
            await timed(
              'write',
              started,
              () =>
                fetch(`${server.url}/api/CreateDepartment`, {
                  method: 'POST',
                  headers: { cookie, 'content-type': 'application/json' },
                  body: JSON.stringify({ name }),
                  signal,
                }),
              name,
            ),
          );
        } else {
          const path = n % 3 === 1 ? 'GetDepartments?limit=5' : 'GetSession';
          outcomes.push(
            await timed('read', started, () =>
              fetch(`${server.url}/api/${path}`, { headers: { cookie }, signal }),
            ),
          );
        }
        await sleep(20);
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    await sleep(5_000);
    const restartAt = Date.now() - started;
    log('restarting PostgreSQL');
    await execFileAsync('pg_ctlcluster', [
      '--skip-systemctl-redirect',
      readdirSync('/etc/postgresql')[0]!,
      'main',
      'restart',
    ]);
    const restartedAt = Date.now() - started;
    log(`pg_ctlcluster restart returned after ${restartedAt - restartAt} ms`);
    await Promise.all(workers);

    const by = (s: Outcome['status']) => outcomes.filter((o) => o.status === s);
    const unavailable = by(503);
    const statuses = Object.fromEntries(
      [...new Set(outcomes.map((o) => o.status))].map((s) => [
        s,
        outcomes.filter((o) => o.status === s).length,
      ]),
    );
    const firstOkAfter = outcomes
      .filter((o) => o.status === 200 && o.at >= restartedAt)
      .reduce((min, o) => Math.min(min, o.at), Number.POSITIVE_INFINITY);
    const lastFailure = outcomes
      .filter((o) => o.status !== 200)
      .reduce((max, o) => Math.max(max, o.at + o.ms), 0);
    const latencies = outcomes.map((o) => o.ms);
    log('figures', {
      requests: outcomes.length,
      statuses,
      'latency ms': {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: Math.max(...latencies),
      },
      'slowest 503 ms': Math.max(0, ...unavailable.map((o) => o.ms)),
      'restart window ms': [restartAt, restartedAt],
      'first 200 after the restart, ms after it returned': firstOkAfter - restartedAt,
      'last failed answer ends at ms': lastFailure,
    });
    check(unavailable.length > 0, `the outage was seen: ${unavailable.length} answers were 503`);
    check(
      outcomes.every((o) => o.status === 200 || o.status === 503),
      'every answer was 200 or 503: no 500, no 401, no dropped connection, no timeout',
    );
    check(
      unavailable.every((o) => o.retryAfter === '5'),
      '503 answers carry Retry-After',
    );
    check(Math.max(...unavailable.map((o) => o.ms), 0) < 10_000, 'failures were fast (each 503 within 10 s)');
    check(firstOkAfter - restartedAt < 10_000, 'service resumed by itself within 10 s of the restart');
    const tail = outcomes.filter((o) => o.at > RUN_MS - 5_000);
    check(tail.length > 0 && tail.every((o) => o.status === 200), 'the last 5 s of the run were all 200');

    const stored = new Set(
      (await db.query<{ name: string }>(`select name from departments where name like 'fault-dept-%'`)).map(
        (r) => r.name,
      ),
    );
    const accepted = outcomes.filter((o) => o.kind === 'write' && o.status === 200).map((o) => o.name!);
    const refusedButStored = outcomes.filter(
      (o) => o.kind === 'write' && o.status !== 200 && stored.has(o.name!),
    );
    check(
      accepted.every((n) => stored.has(n)),
      `all ${accepted.length} accepted writes are stored`,
    );
    log(`writes refused with 503 yet committed (commit acknowledged too late): ${refusedButStored.length}`);
    check(server.child.exitCode === null, 'the server process stayed up');
    if (server.child.exitCode !== null) log(`server output:\n${server.lines.slice(-40).join('\n')}`);
    const health = await call(server.url, 'GetSession', cookie);
    check(health.status === 200, 'the session made before the restart still works');
  } finally {
    await server.stop('SIGKILL');
    await ensurePostgresRunning();
  }
}

async function killDuringBulkSave(db: TestDatabase) {
  log('--- 2. the server killed (SIGKILL) during bulk saves');
  const EMPLOYEES = 1000;
  const SKILLS = 20;
  let server: ServerProcess = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD });
  try {
    const cookie = await login(server.url, 'admin', PASSWORD);
    const dept = await call(server.url, 'CreateDepartment', cookie, { name: 'Bulk' });
    const departmentCode = (dept.json.data as { departmentCode: string }).departmentCode;
    const skillCodes: string[] = [];
    for (let i = 0; i < SKILLS; i++) {
      const res = await call(server.url, 'CreateSkill', cookie, { title: `Bulk skill ${i}` });
      skillCodes.push((res.json.data as { skillCode: string }).skillCode);
    }
    await db.query(
      `insert into employees (employee_code, employee_id, name, department_code, join_date)
       select 'EMP-BULK' || lpad(g::text, 12, '0'), 'B-' || g, 'Bulk employee ' || g, $1, '2020-01-01'
       from generate_series(1, ${EMPLOYEES}) g`,
      [departmentCode],
    );
    const employeeCodes = (
      await db.query<{ c: string }>(`select employee_code as c from employees order by 1`)
    ).map((r) => r.c);
    const body = (date: string) => ({
      performances: employeeCodes.map((employeeCode, i) => ({
        employeeCode,
        date,
        performancePerSkill: skillCodes.map((skillCode, j) => ({
          skillCode,
          pointsEarned: String((i + j) % 11),
          totalPoints: '10',
        })),
      })),
    });
    const save = (date: string) =>
      fetch(`${server.url}/api/CreateUpdatePerformances`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body(date)),
        signal: AbortSignal.timeout(120_000),
      });

    const t0 = Date.now();
    const full = await save('2024-01-01');
    const fullMs = Date.now() - t0;
    check(
      full.status === 200,
      `a full save of ${EMPLOYEES} rows × ${SKILLS} skills answers 200 (${fullMs} ms)`,
    );

    const state = async (date: string) => {
      const [r] = await db.query<{ rows: number; scores: number; audits: number }>(
        `select (select count(*)::int from performances where date = $1::date) as rows,
                (select count(*)::int from performance_scores s join performances p using (performance_code) where p.date = $1::date) as scores,
                (select count(*)::int from audits where collection = 'performances' and after->>'date' = $2) as audits`,
        [date, date],
      );
      return r!;
    };
    check(
      JSON.stringify(await state('2024-01-01')) ===
        JSON.stringify({ rows: EMPLOYEES, scores: EMPLOYEES * SKILLS, audits: EMPLOYEES }),
      'the full save stored every row, score and audit record',
    );

    // From early in the request to just after the usual commit: every phase of the save.
    const fractions = [0.2, 0.4, 0.6, 0.8, 1.0, 1.4];
    for (const [i, fraction] of fractions.entries()) {
      const date = `2024-02-${String(i + 1).padStart(2, '0')}`;
      const pending = save(date).then(
        (r) => r.status,
        () => 'connection lost',
      );
      await sleep(Math.round(fullMs * fraction));
      const [active] = await db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and state <> 'idle' and pid <> pg_backend_pid()`,
      );
      server.child.kill('SIGKILL');
      await server.exited;
      const answer = await pending;
      const after = await state(date);
      const none = after.rows === 0 && after.scores === 0 && after.audits === 0;
      const all =
        after.rows === EMPLOYEES && after.scores === EMPLOYEES * SKILLS && after.audits === EMPLOYEES;
      check(
        none || all,
        `killed at ${Math.round(fraction * 100)}% (${active!.n} statements running, client saw ${answer}): ${all ? 'all' : none ? 'nothing' : 'PART'} stored ${JSON.stringify(after)}`,
      );
      server = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD });
      const again = await call(server.url, 'GetSession', cookie);
      check(
        again.status === 200,
        'after the restart the old session still works (sessions live in the database)',
      );
    }

    // Many small transactions at once: a role and its permissions, and its audit record.
    const permissionCodes = (
      await db.query<{ c: string }>(`select permission_code as c from permissions`)
    ).map((r) => r.c);
    let answeredSoFar = 0;
    const creates = Array.from({ length: 40 }, (_, i) =>
      fetch(`${server.url}/api/CreateRole`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ roleName: `kill-role-${i}`, rolePermissions: permissionCodes }),
      }).then(
        (r) => {
          if (r.status === 200) answeredSoFar++;
          return r.status;
        },
        () => 0,
      ),
    );
    // Kill once a few have committed, so that others are caught part-way.
    for (let i = 0; i < 200 && answeredSoFar < 5; i++) await sleep(25);
    server.child.kill('SIGKILL');
    await server.exited;
    const answered = (await Promise.all(creates)).filter((s) => s === 200).length;
    const roles = await db.query<{ n: number; perms: number }>(
      `select r.role_name as name, (select count(*)::int from role_permissions rp where rp.role_code = r.role_code) as perms
       from roles r where r.role_name like 'kill-role-%'`,
    );
    const [audits] = await db.query<{ n: number }>(
      `select count(*)::int as n from audits where collection = 'roles' and action = 'CREATE' and after->>'roleName' like 'kill-role-%'`,
    );
    log(`roles: ${answered} answered 200 before the kill, ${roles.length} stored`);
    check(roles.length >= answered, 'every role answered 200 is stored');
    check(
      roles.every((r) => r.perms === permissionCodes.length),
      `every stored role has all ${permissionCodes.length} permissions`,
    );
    check(
      audits!.n === roles.length,
      'every stored role has its audit record, and no audit record lacks its role',
    );
    server = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD });
  } finally {
    await server.stop('SIGKILL');
  }
}

async function sigtermDrains(db: TestDatabase) {
  log('--- 3. SIGTERM drains in-flight requests');
  const server = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD });
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  try {
    const cookie = await login(server.url, 'admin', PASSWORD);
    // Holding this lock keeps the requests below in flight for as long as the test wants.
    await locker.query('begin');
    await locker.query('lock table genders in access exclusive mode');
    const inflight = [
      ...Array.from({ length: 5 }, () =>
        fetch(`${server.url}/api/GetGenders`, { headers: { cookie } }).then(
          (r) => r.status,
          () => 'lost',
        ),
      ),
      fetch(`${server.url}/api/CreateGender`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ genderName: 'Drained' }),
      }).then(
        (r) => r.status,
        () => 'lost',
      ),
    ];
    for (let i = 0; i < 50; i++) {
      const { rows } = await locker.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (rows[0].n >= 6) break;
      await sleep(100);
    }
    const sigtermAt = Date.now();
    server.child.kill('SIGTERM');
    await sleep(500);
    const fresh = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status,
      () => 'refused',
    );
    check(fresh === 'refused' || fresh === 503, `a new request after SIGTERM is refused (${fresh})`);
    check(server.child.exitCode === null, 'the server waits while requests are in flight');
    await sleep(1000);
    await locker.query('commit');
    const statuses = await Promise.all(inflight);
    const exit = await server.exited;
    log(
      `exited ${Date.now() - sigtermAt} ms after SIGTERM (lock released after 1.5 s): ${JSON.stringify(statuses)}, exit ${JSON.stringify(exit)}`,
    );
    check(
      statuses.every((s) => s === 200),
      'every in-flight request completed with 200',
    );
    check(exit.code === 0, 'the server exited cleanly (code 0) once drained');
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from genders where gender_name = 'Drained'`,
    );
    check(row!.n === 1, 'the in-flight write was committed');
  } finally {
    await locker.query('rollback').catch(() => undefined);
    await locker.end();
    await server.stop('SIGKILL');
  }

  log('--- 3b. a request stuck past SHUTDOWN_GRACE_SECONDS does not keep the server up');
  const stuck = await startServer(db.url, { ADMIN_PASSWORD: PASSWORD, SHUTDOWN_GRACE_SECONDS: '3' });
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  try {
    const cookie = await login(stuck.url, 'admin', PASSWORD);
    await holder.query('begin');
    await holder.query('lock table genders in access exclusive mode');
    const pending = fetch(`${stuck.url}/api/GetGenders`, { headers: { cookie } }).then(
      (r) => r.status,
      () => 'lost',
    );
    await sleep(500);
    const t0 = Date.now();
    stuck.child.kill('SIGTERM');
    const exit = await stuck.exited;
    const waited = Date.now() - t0;
    log(`exited after ${waited} ms with ${JSON.stringify(exit)}; the stuck request saw ${await pending}`);
    check(waited >= 2500 && waited < 8000, 'it waited for the grace period, then exited');
    check(exit.code === 1, 'and said so with exit code 1');
  } finally {
    await holder.query('rollback').catch(() => undefined);
    await holder.end();
    await stuck.stop('SIGKILL');
  }
}

const db = await createDatabase('wfc_fault');
try {
  // FAULTS=restart,kill,drain picks scenarios (all by default).
  const only = new Set((process.env.FAULTS ?? 'restart,kill,drain').split(','));
  if (only.has('restart')) await postgresRestartUnderLoad(db);
  if (only.has('kill')) await killDuringBulkSave(db);
  if (only.has('drain')) await sigtermDrains(db);
} catch (err) {
  failures.push(String(err));
  log('aborted:', err);
} finally {
  await ensurePostgresRunning();
  await db.drop().catch((err) => log('could not drop the database:', (err as Error).message));
}

if (failures.length) {
  log(`${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
log('fault tests passed');

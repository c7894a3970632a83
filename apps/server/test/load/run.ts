import autocannon from 'autocannon';
import { BASE_DATABASE_URL, call, createDatabase, log, login, startServer } from './harness.ts';

/**
 * `npm run test:load`: the real server on PostgreSQL under LOAD_CONNECTIONS (100) connections for
 * LOAD_SECONDS (60) of mixed reads and writes. Passes when no answer is a 5xx, no request errors
 * or times out, and the database holds exactly the writes that were answered 200.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

const kinds = ['departments', 'skills', 'genders'] as const;
type Kind = (typeof kinds)[number];
const perKind = () =>
  Object.fromEntries(kinds.map((k) => [k, new Set<string>()])) as Record<Kind, Set<string>>;

const db = await createDatabase('wfc_load');
log(`database ${db.name} on ${new URL(BASE_DATABASE_URL).host}`);
// No ADMIN_PASSWORD: the first start must generate one and print it once.
const server = await startServer(db.url, { ADMIN_PASSWORD: '' });
try {
  const printed = server.lines.map((l) => /generated password: (\S+)/.exec(l)?.[1]).find(Boolean);
  check(Boolean(printed), 'first start printed a generated admin password');
  const admin = await login(server.url, 'admin', printed ?? '');
  const gender = await call(server.url, 'CreateGender', admin, { genderName: 'Load subject' });
  const genderCode = (gender.json.data as { genderCode: string }).genderCode;

  let serial = 0;
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  /** Per write kind: every name sent, and the names answered 200 or refused. */
  const sent = perKind();
  const accepted = perKind();
  const refused = perKind();
  const read = (path: string): autocannon.Request => ({
    method: 'GET',
    path: `/api/${path}`,
    headers: { cookie: admin },
    onResponse: (status: number) => count(status),
  });
  // One request in flight per connection (no pipelining), so the connection's context knows
  // which name an answer belongs to.
  const write = (path: string, kind: Kind, body: (name: string) => string): autocannon.Request => ({
    method: 'POST',
    path: `/api/${path}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin },
    setupRequest: (req, context) => {
      const name = `load-${kind}-${++serial}`;
      (context as Record<string, unknown>)[kind] = name;
      sent[kind].add(name);
      return { ...req, body: body(name) };
    },
    onResponse: (status: number, _body: string, context: object) => {
      count(status);
      (status === 200 ? accepted : refused)[kind].add((context as Record<string, string>)[kind]!);
    },
  });

  log(`running ${CONNECTIONS} connections for ${SECONDS} s`);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    // Generous: the point is that nothing hangs for good, on a machine that may be shared.
    timeout: 30,
    requests: [
      read('GetGenders?keyword=load&limit=10'),
      write('CreateDepartment', 'departments', (name) => `name=${name}`),
      read('GetSession'),
      read('GetRoles?sortField=roleName&sortValue=asc'),
      write('CreateSkill', 'skills', (name) => `title=${name}&description=made+under+load`),
      read('GetDepartments?keyword=dept-1&page=2&limit=20'),
      write('UpdateGender', 'genders', (name) => `genderCode=${genderCode}&genderName=${name}`),
      read('GetAudits?limit=10'),
    ],
  });

  // SIGTERM drains what the server still runs for connections the client has already dropped,
  // so the counts below are final.
  const exit = await server.stop('SIGTERM');
  check(exit.code === 0, `server drained and exited cleanly (${JSON.stringify(exit)})`);

  const names = async (text: string) => new Set((await db.query<{ n: string }>(text)).map((r) => r.n));
  const stored: Record<Kind, Set<string>> = {
    departments: await names(`select name as n from departments where name like 'load-%'`),
    skills: await names(`select title as n from skills where title like 'load-%'`),
    // Each committed update leaves its audit record, which names the value it wrote.
    genders: await names(
      `select after->>'genderName' as n from audits where collection = 'genders' and action = 'UPDATE'`,
    ),
  };
  const [audit] = await db.query<{ creates: number }>(
    `select count(*)::int as creates from audits where action = 'CREATE' and collection in ('departments', 'skills')`,
  );

  const total = result.requests.total;
  log('figures', {
    seconds: SECONDS,
    connections: CONNECTIONS,
    requests: total,
    'requests/s (mean)': Math.round(result.requests.average),
    'latency ms': {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    errors: result.errors,
    timeouts: result.timeouts,
    writes: Object.fromEntries(
      kinds.map((k) => [
        k,
        { sent: sent[k].size, accepted: accepted[k].size, refused: refused[k].size, stored: stored[k].size },
      ]),
    ),
  });
  check(total > 0, `${total} requests answered`);
  check(result['5xx'] === 0 && ![...statuses.keys()].some((s) => s >= 500), 'no 5xx');
  check(result.errors === 0 && result.timeouts === 0, 'no connection errors or timeouts');
  check(result.non2xx === 0, 'every answer was 200 (no refusal under load)');
  for (const k of kinds) {
    const lost = [...accepted[k]].filter((n) => !stored[k].has(n));
    const phantom = [...stored[k]].filter((n) => !sent[k].has(n) || refused[k].has(n));
    // The run stops with up to one request per connection unanswered; those may have committed.
    const unanswered = [...stored[k]].filter((n) => !accepted[k].has(n)).length;
    check(
      lost.length === 0,
      `${k}: all ${accepted[k].size} accepted writes are stored (lost: ${lost.length})`,
    );
    check(phantom.length === 0, `${k}: nothing stored that was never sent or was refused`);
    check(
      unanswered <= CONNECTIONS,
      `${k}: ${unanswered} stored writes were unanswered when the run stopped`,
    );
  }
  check(
    audit!.creates === stored.departments.size + stored.skills.size,
    'every stored create has its audit record',
  );
  const restarted = await startServer(db.url, { ADMIN_PASSWORD: '' });
  check(!restarted.lines.some((l) => l.includes('generated password')), 'a later start prints no password');
  await restarted.stop();
} finally {
  await server.stop('SIGKILL');
  await db.drop();
}

if (failures.length) {
  log(`${failures.length} check(s) failed`);
  process.exit(1);
}
log('load test passed');

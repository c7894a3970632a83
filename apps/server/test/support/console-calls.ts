import { tmpdir } from 'node:os';
import { entryPointArgs } from './cli.ts';
import { type RunningServer, startServer } from './processes.ts';

/*
 * A running server (src/main.ts in a child process) driven as a browser drives it: sign in, create
 * departments, list them. What the tests that stop, kill, back up and restart servers share.
 */

export const ADMIN_PASSWORD = 'change-me-admin-1';

/** The server from its sources on the database `env` names (DATA_DIR or DATABASE_URL). */
export const startConsole = (env: Record<string, string>, extra: Record<string, string> = {}) =>
  startServer(process.execPath, entryPointArgs('main.ts'), {
    cwd: tmpdir(),
    env: {
      DEMO_DATA: 'false',
      ADMIN_PASSWORD,
      SECRET_KEY: 'a-secret-key-of-the-process-tests-0123456789',
      ...env,
      ...extra,
    },
  });

/** Signs `admin` in; answers the session cookie. */
export async function signIn(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers.getSetCookie()[0]?.split(';')[0] ?? '';
}

/** Creates a department; answers the status. */
export async function createDepartment(server: RunningServer, cookie: string, name: string) {
  const res = await fetch(`${server.url}/api/CreateDepartment`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The names of every department whose name holds `keyword`. */
export async function departmentNames(server: RunningServer, cookie: string, keyword: string) {
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ keyword, limit: '100', page: String(page) });
    const res = await fetch(`${server.url}/api/GetDepartments?${query}`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GetDepartments answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { data: { name: string }[] };
    names.push(...body.data.map((d) => d.name));
    if (body.data.length < 100) return names;
  }
}

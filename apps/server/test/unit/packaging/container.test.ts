import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * The container image and the runtime it is built on, read from the files themselves: no Docker
 * engine runs where the suite runs, so these rules are what a security review of the image would
 * check first (docs/operations.md, "Containers").
 */

const ROOT = new URL('../../../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/**
 * A first start on a new embedded database, measured on a busy two-core machine, with room to
 * spare: the health check's failures must not count before it is over.
 */
const FIRST_START_SECONDS = 240;

interface Instruction {
  keyword: string;
  args: string;
}

/** Pure: a Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(dockerfile: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const line of dockerfile.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    current += `${line.replace(/\\\s*$/, '')} `;
    if (!continued) {
      if (current.trim()) logical.push(current.trim());
      current = '';
    }
  }
  return logical.map((text) => {
    const [keyword = '', ...rest] = text.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });
}

/** Pure: a duration as the Dockerfile writes it (`90s`, `5m`, `1m30s`), in seconds. */
function seconds(duration: string): number {
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+)(h|m|s)/g)) {
    total += Number(n) * { h: 3600, m: 60, s: 1 }[unit as 'h' | 'm' | 's'];
  }
  return total;
}

const dockerfile = instructions(read('Dockerfile'));
const of = (keyword: string) => dockerfile.filter((i) => i.keyword === keyword);
const nodeRelease = read('.nvmrc').trim();

describe('the Dockerfile', () => {
  it('builds on the Node.js release CI tests, named by its exact version and Debian release', () => {
    const froms = of('FROM').map((i) => i.args.split(/\s+/)[0]);
    expect(froms.length).toBeGreaterThan(0);
    for (const image of froms) expect(image).toBe(`node:${nodeRelease}-trixie-slim`);
  });

  it('runs as a numeric, non-root user and group, which runAsNonRoot can verify', () => {
    const users = of('USER');
    expect(users).toHaveLength(1);
    const [uid, gid] = (users[0]?.args ?? '').split(':');
    expect(uid).toMatch(/^[1-9]\d*$/);
    expect(gid).toMatch(/^[1-9]\d*$/);
    // The database folder belongs to that user; the installation stays root's, read-only to it.
    const run = of('RUN')
      .map((i) => i.args)
      .join('\n');
    expect(run).toContain(`chown ${uid}:${gid} /data`);
    for (const copy of of('COPY').filter((i) => i.args.includes('--from='))) {
      expect(copy.args).not.toContain('--chown');
    }
  });

  it('declares no volume: the operator mounts one for the embedded database, none with PostgreSQL', () => {
    expect(of('VOLUME')).toEqual([]);
  });

  it('has PostgreSQL client tools 17, which back up servers of 17 and older', () => {
    expect(of('RUN').some((i) => /apt-get install .*\bpostgresql-client-17\b/.test(i.args))).toBe(true);
  });

  it('checks readiness, counting failures only after a first start had time to finish', () => {
    const [check] = of('HEALTHCHECK');
    expect(check?.args).toContain('/api/health/ready');
    const start = /--start-period=(\S+)/.exec(check?.args ?? '')?.[1] ?? '0s';
    expect(seconds(start)).toBeGreaterThanOrEqual(FIRST_START_SECONDS);
  });

  it('runs tini as PID 1 and the compiled server', () => {
    expect(of('ENTRYPOINT').map((i) => i.args)).toEqual(['["/usr/bin/tini", "--"]']);
    expect(of('CMD').at(-1)?.args).toContain('apps/server/dist/main.js');
  });
});

describe('compose.yaml', () => {
  const compose = read('compose.yaml');
  /** The lines of one service, up to the next top-level or service key. */
  const service = (name: string) =>
    (new RegExp(`\\n  ${name}:\\n((?:    .*\\n|\\s*\\n)*)`).exec(compose)?.[1] ?? '').trimEnd();

  it("runs PostgreSQL 17, no newer than the image's client tools", () => {
    expect(service('db')).toMatch(/^\s+image: postgres:17\s*$/m);
  });

  it('gives the console no volume: its data is in PostgreSQL', () => {
    const console = service('console');
    expect(console).toContain('DATABASE_URL:');
    expect(console).not.toMatch(/^\s+volumes:/m);
  });
});

describe('the Node.js release', () => {
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
  const minimum = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);

  it('is one version everywhere: .nvmrc, the Dockerfile, and what CI and ./npm fetch', () => {
    expect(nodeRelease).toMatch(/^24\.\d+\.\d+$/);
    expect(read('scripts/node-runtime.sh')).toContain(`\nVERSION=${nodeRelease}\n`);
  });

  it('meets engines, whose floor is 22 (still supported), and the server is compiled for that floor', () => {
    expect(minimum, pkg.engines.node).not.toBeNull();
    const [major, minor] = nodeRelease.split('.').map(Number);
    const [floorMajor, floorMinor] = [Number(minimum?.[1]), Number(minimum?.[2])];
    expect(floorMajor).toBe(22);
    expect(major! > floorMajor || (major === floorMajor && minor! >= floorMinor)).toBe(true);
    expect(read('apps/server/scripts/build.ts')).toContain(`target: 'node${floorMajor}.${floorMinor}'`);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile } from './stats.ts';

const works = () => spawnSync('pgbench', ['--version'], { stdio: 'ignore' }).status === 0;

/** pgbench comes with PostgreSQL's contrib package on Debian; installed when missing and allowed. */
export function ensurePgbench(): boolean {
  if (works()) return true;
  if (process.getuid?.() === 0 && spawnSync('which', ['apt-get']).status === 0) {
    console.log('pgbench not found: installing postgresql-contrib...');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql-contrib'], { stdio: 'inherit' });
  }
  return works();
}

export interface PgbenchResult {
  tps: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * The statements as one pgbench transaction, over the extended protocol as node-postgres sends
 * them, `clients` connections for `seconds`; latencies from pgbench's per-transaction log.
 */
export function runPgbench(
  url: string,
  statements: string[],
  clients: number,
  seconds: number,
): PgbenchResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'wfc-pgbench-'));
  try {
    const script = path.join(dir, 'list.sql');
    writeFileSync(script, `${statements.map((s) => `${s.trim()};`).join('\n')}\n`);
    const out = execFileSync(
      'pgbench',
      [
        '--no-vacuum',
        '--protocol=extended',
        `--client=${clients}`,
        '--jobs=2',
        `--time=${seconds}`,
        `--file=${script}`,
        '--log',
        `--log-prefix=${path.join(dir, 'log')}`,
        url,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 * 1024 * 1024 },
    );
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith('log'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        // client_id transaction_no latency_us script_no time_epoch time_us
        const us = Number(line.split(' ')[2]);
        if (Number.isFinite(us) && line) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    return { tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

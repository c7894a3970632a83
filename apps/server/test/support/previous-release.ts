import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec } from './processes.ts';

/*
 * The release before this one, as an operator still runs it beside the new one during a rolling
 * upgrade: its own sources from git and its own dependencies, never this tree's.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The previous release (moved on at each release, with the CHANGELOG): its commit, and the last
 * migration it shipped, after which every migration must let it keep running.
 */
export const PREVIOUS_RELEASE = {
  version: '1.0.0',
  commit: 'd6a3c8c64a135bc4ef914efe17090f4c3f762f67',
  lastMigration: '0015_performance_month_days',
};

/** Only what the server needs: its workspace, the contract, and the lock file's other manifests. */
const PATHS = [
  'package.json',
  'package-lock.json',
  'packages/contract',
  'apps/server',
  'apps/web/package.json',
];

/**
 * The previous release checked out and installed, kept outside the repository between runs: its
 * folder, with `apps/server` holding the server to start.
 */
export async function previousRelease(): Promise<string> {
  const { commit } = PREVIOUS_RELEASE;
  const dir = join(homedir(), '.cache', 'wfc-previous-release', commit);
  const ready = join(dir, '.installed');
  if (existsSync(ready)) return dir;
  const known = await exec('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: REPO_ROOT });
  if (known.code !== 0) {
    throw new Error(
      `The previous release ${commit} is not in this clone's history: fetch it, or clone in full`,
    );
  }
  // Made aside and moved into place whole: two test files may ask at once (each worker prepares
  // it), and neither may delete or read the other's half-made folder.
  await mkdir(dirname(dir), { recursive: true });
  const staging = await mkdtemp(`${dir}.staging-`);
  const archive = join(staging, 'release.tar');
  const packed = await exec('git', ['archive', '--format=tar', '-o', archive, commit, ...PATHS], {
    cwd: REPO_ROOT,
  });
  if (packed.code !== 0) throw new Error(`git archive failed: ${packed.stderr}`);
  const unpacked = await exec('tar', ['-xf', archive], { cwd: staging });
  if (unpacked.code !== 0) throw new Error(`tar failed: ${unpacked.stderr}`);
  await rm(archive);
  // Its native modules ship prebuilt (argon2) or as platform packages (sharp, esbuild): nothing to run.
  const installed = await exec(
    'npm',
    ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    {
      cwd: staging,
      env: {
        npm_config_cache: join(homedir(), '.npm'),
        // A machine that reaches the registry through a proxy with a certificate authority of its own.
        ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
      },
    },
  );
  if (installed.code !== 0) throw new Error(`npm ci of the previous release failed:\n${installed.stderr}`);
  await writeFile(join(staging, '.installed'), `${new Date().toISOString()}\n`);
  if (existsSync(ready)) {
    await rm(staging, { recursive: true, force: true });
    return dir;
  }
  // A folder without the mark is a preparation an earlier run left unfinished.
  await rm(dir, { recursive: true, force: true });
  try {
    await rename(staging, dir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(ready)) throw err;
  }
  return dir;
}

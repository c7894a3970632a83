/**
 * `npm run package -- DIR`: a production installation of the console in DIR: the compiled server,
 * its migrations, the built web app and the runtime dependencies only (`npm ci --omit=dev`). The
 * Dockerfile's build stage runs this same command; so does CI, which then starts the result.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const target = process.argv[2];
if (!target) {
  console.error('Usage: npm run package -- DIR');
  process.exit(1);
}
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), target);

const built = ['apps/server/dist/main.js', 'apps/web/dist/index.html'];
const missing = built.filter((file) => !existsSync(join(root, file)));
if (missing.length > 0) {
  console.error(`Not built yet (${missing.join(', ')}): run npm run build first`);
  process.exit(1);
}
if (existsSync(dir) && readdirSync(dir).length > 0) {
  console.error(`${dir} is not empty: choose a new or empty directory`);
  process.exit(1);
}

/** What runs in production; npm needs every workspace's package.json to install the lockfile. */
const files = [
  'package.json',
  'package-lock.json',
  '.env.example',
  'scripts/start.mjs',
  'packages/contract/package.json',
  'apps/web/package.json',
  'apps/web/dist',
  'apps/server/package.json',
  'apps/server/dist',
  'apps/server/drizzle',
];
mkdirSync(dir, { recursive: true });
for (const file of files) cpSync(join(root, file), join(dir, file), { recursive: true });

const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
  cwd: dir,
  stdio: 'inherit',
});
if (install.status !== 0) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(install.status ?? 1);
}
console.log(`Production installation in ${dir}: start it with npm start (or node apps/server/dist/main.js)`);

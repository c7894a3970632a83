/**
 * `npm run package -- DIR`: a production installation of the console in DIR: the compiled server,
 * its migrations, the built web app and the runtime dependencies only (`npm ci --omit=dev`), with
 * the bill of materials of what was installed (`sbom.cdx.json`, CycloneDX) and a summary of its
 * licences (`licences.md`). The Dockerfile's build stage runs this same command; so does CI, which
 * then starts the result.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Bom, describedAs, licenceSummary } from './sbom.ts';

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

/**
 * npm sbom run on the installation, its manifests without devDependencies meanwhile: it reads the
 * installed tree but refuses one whose manifests name development packages it lacks, and its
 * --omit=dev also leaves out every runtime package a development one shares. So the document lists
 * exactly what is installed. The manifests are put back after, so that npm ci can run here again.
 */
function installedSbom(): SpawnSyncReturns<string> {
  const manifests = files.filter((file) => file.endsWith('package.json')).map((file) => join(dir, file));
  const originals = manifests.map((path) => readFileSync(path, 'utf8'));
  // npm start rebuilds what is older than its sources, package.json files included, and the build
  // output was copied a few milliseconds after them: each gets back its time, down to the whole
  // second, which can only make it older.
  const times = manifests.map((path) => Math.floor(statSync(path).mtimeMs / 1000));
  try {
    for (const [i, path] of manifests.entries()) {
      const manifest = JSON.parse(originals[i] ?? '{}') as Record<string, unknown>;
      const production = Object.fromEntries(
        Object.entries(manifest).filter(([key]) => key !== 'devDependencies'),
      );
      writeFileSync(path, `${JSON.stringify(production, null, 2)}\n`);
    }
    return spawnSync('npm', ['sbom', '--sbom-format=cyclonedx', '--sbom-type=application'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } finally {
    for (const [i, path] of manifests.entries()) {
      writeFileSync(path, originals[i] ?? '');
      const time = times[i] ?? 0;
      utimesSync(path, time, time);
    }
  }
}
const sbom = installedSbom();
if (sbom.status !== 0) {
  console.error(`npm sbom failed:\n${sbom.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(sbom.status ?? 1);
}
const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
const bom = describedAs(JSON.parse(sbom.stdout) as Bom, name);
writeFileSync(join(dir, 'sbom.cdx.json'), `${JSON.stringify(bom, null, 2)}\n`);
writeFileSync(join(dir, 'licences.md'), licenceSummary(bom));
console.log(`Production installation in ${dir}: start it with npm start (or node apps/server/dist/main.js)`);

/**
 * `npm start`: builds what is missing or older than its sources, then runs the compiled server in
 * this very process. npm's script shell `exec`s this file, so the signals a process manager sends
 * to `npm start` reach the server itself, which drains its requests and exits.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time under the given files and folders (0 when none exists). */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(root, path));
  return latest;
}

const contract = ['packages/contract/src', 'packages/contract/package.json'];
const targets = [
  {
    workspace: '@wfc/web',
    output: 'apps/web/dist/index.html',
    sources: [
      ...contract,
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/scripts',
    ],
  },
  {
    workspace: '@wfc/server',
    output: 'apps/server/dist/main.js',
    sources: [...contract, 'apps/server/src', 'apps/server/scripts', 'apps/server/package.json'],
  },
];

for (const { workspace, output, sources } of targets) {
  const outputPath = join(root, output);
  // A production install carries the compiled output without its sources: nothing to compare.
  const built = existsSync(outputPath) ? statSync(outputPath).mtimeMs : 0;
  if (built > 0 && newest(sources) <= built) continue;
  console.log(`Building ${workspace} (${built ? 'sources changed' : 'not built yet'})`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The working directory stays where npm runs root scripts, and npm names the folder the command
// was started in (INIT_CWD): the server reads `.env` there and resolves relative paths (DATA_DIR's
// default ./data) from it, as every other command does.
await import(pathToFileURL(join(root, 'apps/server/dist/main.js')).href);

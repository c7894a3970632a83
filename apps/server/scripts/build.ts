/**
 * Compiles the server to plain JavaScript in `dist/`, so that production runs `node` and needs
 * only the runtime dependencies. The shared contract is bundled in (its package ships TypeScript);
 * every package the server lists as a dependency stays an import resolved from node_modules.
 * Entry points and chunks all sit at the top of `dist/`, the same depth as `src/paths.ts`, so the
 * paths it derives from `import.meta.url` hold in both.
 */
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const root = new URL('..', import.meta.url).pathname;

rmSync(`${root}dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: [
    'src/main.ts',
    'src/cli/migrate.ts',
    'src/cli/reset-password.ts',
    'src/cli/backup.ts',
    'src/cli/restore.ts',
    'src/cli/retention-purge.ts',
  ],
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  sourcemap: true,
  // Demo data (faker, the geography list) is loaded lazily, only when demo data is wanted, so a
  // production install without the development dependencies starts without them.
  external: [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies ?? {})],
  // Bundled CommonJS code may call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __wfcRequire } from 'node:module'; const require = __wfcRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log('Server compiled to apps/server/dist/');

/**
 * What JavaScript each route of the built web app downloads, against the bundle-size targets.
 *
 *   npx tsx apps/web/scripts/bundle-report.ts [distDir] [--chunks]
 *
 * Reads distDir (apps/web/dist by default) as built: index.html for what the page loads up front
 * and the Vite manifest for the chunk graph. A route loads the entry, everything index.html
 * preloads, its own lazy chunks, and every chunk those import statically. Sizes are per file,
 * raw and gzip-compressed, as a browser fetches them; 1 KB = 1000 bytes. Exits 1 when a target
 * is missed and 2 when the build cannot be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';

const KB = 1000;
const LOGIN_TARGET_KB = 200;
const ROUTE_TARGET_KB = 400;

interface RouteSpec {
  route: string;
  /**
   * Source modules the route imports lazily, as the manifest names them. One the build did not
   * make a chunk of its own sits inside another chunk; the screen itself (the first) is expected
   * to be separate, and a warning says when it is not, as a renamed file would look the same.
   */
  lazy: string[];
  targetKb: number;
}

const REGISTRY = 'src/registry/routes.tsx';
// The shell names registry screens from the resource definitions, loaded with the registry.
const TITLES = 'src/layout/titles.ts';

const ROUTES: RouteSpec[] = [
  { route: '/login', lazy: [], targetKb: LOGIN_TARGET_KB },
  { route: '/', lazy: ['src/pages/HomePage.tsx'], targetKb: ROUTE_TARGET_KB },
  // The modules page fetches the registry screens ahead of the first click.
  { route: '/registry', lazy: ['src/registry/ModulesPage.tsx', REGISTRY], targetKb: ROUTE_TARGET_KB },
  {
    route: '/registry/genders',
    lazy: [REGISTRY, TITLES, 'src/registry/list/ResourceList.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
  {
    route: '/registry/gender/create',
    lazy: [REGISTRY, TITLES, 'src/registry/record/ResourceForm.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
  {
    route: '/registry/profile/create',
    lazy: [REGISTRY, TITLES, 'src/registry/profile/ProfileForm.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
  {
    route: '/performance-snapshot',
    lazy: ['src/performance/PerformancePage.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
  // The insight pages load the chart library with themselves.
  {
    route: '/performance-snapshot/overview',
    lazy: ['src/performance/insights/OverviewPage.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
  {
    route: '/performance-snapshot/employees/:code',
    lazy: ['src/performance/insights/EmployeeInsightPage.tsx'],
    targetKb: ROUTE_TARGET_KB,
  },
];

export class ReportError extends Error {}

function readBuild(distDir: string) {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const htmlPath = path.join(distDir, 'index.html');
  for (const file of [htmlPath, manifestPath]) {
    if (!existsSync(file)) {
      throw new ReportError(`${file} is missing: build first (npm run build -w @wfc/web)`);
    }
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const html = readFileSync(htmlPath, 'utf8');
  return { manifest, html };
}

/** The JavaScript files index.html loads itself: the entry script and its module preloads. */
function htmlScripts(html: string): string[] {
  const files: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith('<script') && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url) files.push(url.replace(/^\//, ''));
  }
  return files;
}

/** Every JavaScript file a set of chunks needs: the chunks and, transitively, their static imports. */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new ReportError(`the manifest names ${key} as an import but has no entry for it`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

function routeFiles(manifest: Manifest, html: string, spec: RouteSpec): Set<string> {
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const initial = htmlScripts(html).map((file) => {
    const key = byFile.get(file);
    if (!key) throw new ReportError(`index.html loads ${file}, which the manifest does not list`);
    return key;
  });
  if (!initial.some((key) => manifest[key]?.isEntry)) {
    throw new ReportError('index.html loads no entry chunk of the manifest');
  }
  const screen = spec.lazy[0];
  if (screen && !manifest[screen]) {
    console.error(`${spec.route}: ${screen} is not a chunk of its own, so counted only where bundled in`);
  }
  return closure(manifest, [...initial, ...spec.lazy.filter((key) => manifest[key])]);
}

interface Size {
  raw: number;
  gzip: number;
}

function measure(distDir: string, files: Iterable<string>, cache: Map<string, Size>): Size {
  const total: Size = { raw: 0, gzip: 0 };
  for (const file of files) {
    let size = cache.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(distDir, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes).length };
      cache.set(file, size);
    }
    total.raw += size.raw;
    total.gzip += size.gzip;
  }
  return total;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows
    .map((row) =>
      row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))),
    )
    .map((cells) => cells.join('  '))
    .join('\n');
}

/** What a route loads from a build, against its target. */
export interface RouteSize {
  route: string;
  files: string[];
  raw: number;
  gzip: number;
  targetKb: number;
  ok: boolean;
}

/** Every route's JavaScript in the build at distDir. Throws a ReportError when it cannot be read. */
export function routeSizes(distDir: string, cache = new Map<string, Size>()): RouteSize[] {
  const { manifest, html } = readBuild(distDir);
  return ROUTES.map((spec) => {
    const files = [...routeFiles(manifest, html, spec)].sort();
    const size = measure(distDir, files, cache);
    return {
      route: spec.route,
      files,
      ...size,
      targetKb: spec.targetKb,
      ok: size.gzip <= spec.targetKb * KB,
    };
  });
}

function main(argv: string[]): number {
  const showChunks = argv.includes('--chunks');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const distDir = path.resolve(argv.find((arg) => !arg.startsWith('--')) ?? path.join(here, '..', 'dist'));
  const cache = new Map<string, Size>();
  const sizes = routeSizes(distDir, cache);
  const kb = (bytes: number) => (bytes / KB).toFixed(1);

  const rows = [['route', 'files', 'raw KB', 'gzip KB', 'target KB', 'result']];
  const details: string[] = [];
  for (const size of sizes) {
    rows.push([
      size.route,
      String(size.files.length),
      kb(size.raw),
      kb(size.gzip),
      String(size.targetKb),
      size.ok ? 'ok' : 'MISSED',
    ]);
    if (showChunks) {
      details.push('', size.route);
      for (const file of size.files) {
        const one = measure(distDir, [file], cache);
        details.push(`  ${file}  ${kb(one.raw)} / ${kb(one.gzip)} KB`);
      }
    }
  }
  console.log(table(rows));
  if (details.length > 0) console.log(details.join('\n'));
  const missed = sizes.filter((size) => !size.ok).length;
  if (missed > 0) console.error(`\n${missed} route(s) over their gzip target`);
  return missed > 0 ? 1 : 0;
}

// Run as a script; imported (by the bundle test), only the functions.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ReportError)) throw err;
    console.error(`bundle-report: ${err.message}`);
    process.exitCode = 2;
  }
}

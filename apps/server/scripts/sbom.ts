/**
 * The software bill of materials of a production installation and the summary of its licences,
 * written by `npm run package` beside what it describes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a CycloneDX 1.5 document (as `npm sbom` writes it) that are read or changed here. */
export interface Bom {
  bomFormat: string;
  specVersion: string;
  metadata: {
    lifecycles?: { phase: string }[];
    component?: { 'bom-ref': string; name: string; version: string };
  };
  components: Component[];
  dependencies?: { ref: string; dependsOn?: string[] }[];
}

export interface Component {
  'bom-ref': string;
  name: string;
  version: string;
  licenses?: ({ license: { id?: string; name?: string } } | { expression: string })[];
  properties?: { name: string; value: string }[];
}

/**
 * Every package under `node_modules` of `dir`, nested ones included, as `name@version` (the
 * document's `bom-ref`s): what an installation holds, to compare its document with.
 */
export function installedPackages(dir: string): Set<string> {
  const found = new Set<string>();
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const folders = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((name) => join(modules, entry, name))
        : [join(modules, entry)];
      for (const folder of folders) {
        const manifest = join(folder, 'package.json');
        if (!existsSync(manifest)) continue;
        const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
          name: string;
          version: string;
        };
        found.add(`${name}@${version}`);
        visit(join(folder, 'node_modules'));
      }
    }
  };
  visit(join(dir, 'node_modules'));
  return found;
}

/**
 * Pure: the document named as the application (npm names it after its folder) and marked as
 * describing the result of a build, which it read from the installed tree.
 */
export function describedAs(bom: Bom, name: string): Bom {
  return {
    ...bom,
    metadata: {
      ...bom.metadata,
      lifecycles: [{ phase: 'post-build' }],
      ...(bom.metadata.component ? { component: { ...bom.metadata.component, name } } : {}),
    },
  };
}

/** Pure: a component's licence as SPDX writes it; several are all required (AND). */
export function licenceOf(component: Component): string {
  const parts = (component.licenses ?? []).map((l) =>
    'expression' in l ? l.expression : (l.license.id ?? l.license.name ?? ''),
  );
  const named = parts.filter(Boolean);
  if (named.length === 0) return 'none declared';
  return named.length === 1 ? named[0]! : named.map((p) => (/\s/.test(p) ? `(${p})` : p)).join(' AND ');
}

/** Whether a component is one of the console's own packages (private, licensed by no one else). */
const isOwn = (component: Component) =>
  component.properties?.some((p) => p.name === 'cdx:npm:package:private' && p.value === 'true') ?? false;

/**
 * Pure: the licences of the third-party packages, as Markdown: how many packages each licence
 * covers, most first, then each licence's packages.
 */
export function licenceSummary(bom: Bom): string {
  const byLicence = new Map<string, string[]>();
  const third = bom.components.filter((c) => !isOwn(c));
  for (const c of third) {
    const licence = licenceOf(c);
    byLicence.set(licence, [...(byLicence.get(licence) ?? []), `${c.name}@${c.version}`]);
  }
  const rows = [...byLicence].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b));
  const app = bom.metadata.component;
  return [
    `# Licences of the runtime packages${app ? ` of ${app.name} ${app.version}` : ''}`,
    '',
    `The ${third.length} third-party packages installed in \`node_modules\`, as \`sbom.cdx.json\` lists`,
    'them (the console\'s own packages are not counted). A package under "AND" is covered by each',
    'licence named.',
    '',
    '| Licence | Packages |',
    '| --- | ---: |',
    ...rows.map(([licence, packages]) => `| ${licence} | ${packages.length} |`),
    '',
    ...rows.flatMap(([licence, packages]) => [
      `## ${licence}`,
      '',
      ...packages.sort().map((p) => `- ${p}`),
      '',
    ]),
  ].join('\n');
}

import { readFileSync } from 'node:fs';
import { SERVER_DIR } from './paths.ts';

/*
 * The console's release, as its server package names it (every package of the repository carries
 * the same version; CHANGELOG.md says what each release holds). Read from the file rather than
 * compiled in, so the source and the compiled server of one checkout always report the same.
 */

/** The release this server is, e.g. `2.0.0`. */
export const VERSION: string = (
  JSON.parse(readFileSync(`${SERVER_DIR}package.json`, 'utf8')) as { version: string }
).version;

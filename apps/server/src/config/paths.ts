import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SERVER_DIR } from '../paths.ts';
import type { Config } from './config.ts';

/*
 * Every path of the configuration (DATA_DIR, WEB_DIST, the file a backup command is given) is read
 * from the folder the command was started in, the one `.env` is read from. The working directory
 * is no guide: npm runs a workspace's scripts inside the workspace's folder (`apps/server`).
 */

/**
 * The folder the command was started in: npm names it in INIT_CWD (it runs the script itself
 * elsewhere); without npm, the working directory.
 */
export const baseDir = (env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string =>
  env.INIT_CWD || cwd;

/** PGlite's `memory://` (a throw-away database) names no folder. */
const isUrl = (path: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(path);

/** A path as the operator wrote it, made absolute from the base folder; an absolute one is kept. */
export const resolvePath = (base: string, path: string): string => (isUrl(path) ? path : resolve(base, path));

/** What decides where the embedded database is. */
export interface DataDirFacts {
  /** DATA_DIR as configured. */
  setting: string;
  /** The folder the command was started in. */
  base: string;
  /** DATA_DIR from the base folder: where the database belongs. */
  named: string;
  /** The same relative DATA_DIR from the server's folder; unset for an absolute DATA_DIR. */
  inServerDir?: string;
  namedExists: boolean;
  namedHoldsDatabase: boolean;
  inServerDirHoldsDatabase: boolean;
}

export interface DataDirPlace {
  dataDir: string;
  /** Said once at start: the database is not where DATA_DIR names, or a second one lies about. */
  notice?: string;
}

/**
 * Pure: where the embedded database is. An install whose npm scripts resolved a relative DATA_DIR
 * from the server's folder has its data there; that data is used where it is, never replaced by a
 * new empty database, and two databases are never left side by side without a word.
 */
export function placeDataDir(facts: DataDirFacts): DataDirPlace {
  const { setting, base, named, inServerDir: other } = facts;
  if (!other || other === named || !facts.inServerDirHoldsDatabase) return { dataDir: named };
  const from = `DATA_DIR=${setting} from ${base}, the folder the command was started in`;
  if (!facts.namedHoldsDatabase) {
    // `mv` into an existing folder would put the database inside it.
    const move = facts.namedExists ? `rmdir ${named} && mv ${other} ${named}` : `mv ${other} ${named}`;
    return {
      dataDir: other,
      notice:
        `The embedded database is in ${other}, not in ${named} (${from}): it is used where it is. ` +
        `To move it to ${named}, stop the console and run: ${move}`,
    };
  }
  return {
    dataDir: named,
    notice:
      `Two embedded databases: ${named} (${from}) is used; ${other} is not. ` +
      `Keep the one that holds your data in ${named}, and move the other away.`,
  };
}

const holdsDatabase = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

/** Looks at the folders `placeDataDir` decides between. */
export function locateDataDir(setting: string, base: string, serverDir = SERVER_DIR): DataDirPlace {
  const named = resolvePath(base, setting);
  const inServerDir = isAbsolute(setting) || isUrl(setting) ? undefined : resolve(serverDir, setting);
  return placeDataDir({
    setting,
    base,
    named,
    inServerDir,
    namedExists: existsSync(named),
    namedHoldsDatabase: holdsDatabase(named),
    inServerDirHoldsDatabase: inServerDir !== undefined && holdsDatabase(inServerDir),
  });
}

/**
 * The one place the configuration's paths are resolved: every relative path from `base`, and the
 * embedded database where its data is. With DATABASE_URL, DATA_DIR is resolved but not looked at.
 */
export function resolveConfigPaths(
  config: Config,
  base: string,
  serverDir = SERVER_DIR,
): { config: Config; notice?: string } {
  const place = config.DATABASE_URL
    ? { dataDir: resolvePath(base, config.DATA_DIR) }
    : locateDataDir(config.DATA_DIR, base, serverDir);
  return {
    config: {
      ...config,
      DATA_DIR: place.dataDir,
      WEB_DIST: config.WEB_DIST === undefined ? undefined : resolvePath(base, config.WEB_DIST),
    },
    notice: place.notice,
  };
}

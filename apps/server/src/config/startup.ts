import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { baseDir, resolveConfigPaths } from './paths.ts';

/**
 * The `.env` of the directory the command was started in, the same folder relative paths are
 * resolved from (config/paths.ts), so `npm start` at the repository root reads the root's `.env`.
 */
export const envFilePath = (env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) =>
  join(baseDir(env, cwd), '.env');

/**
 * Adds the file's variables to `env`, except those `env` already holds (even empty): a variable of
 * the real environment wins over the file. A missing file is no error. Returns the names it set.
 * The syntax is Node's own (`process.loadEnvFile`, `node --env-file`).
 */
export function loadEnvFile(path: string, env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError([`${path} cannot be read: ${(err as Error).message}`]);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined || value === undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

/** A command's own output is what the operator reads; the server logs notices instead. */
const printNotice = (message: string) => process.stderr.write(`${message}\n`);

/**
 * What every entry point (the server, each command) starts with: the `.env` file, then the
 * configuration, its paths resolved from the folder the command was started in. A configuration
 * that is wrong is printed as a plain list of its problems, with no stack trace, and the process
 * exits with code 1. `notice` receives what the operator must hear about where the data is.
 */
export function startupConfig(notice: (message: string) => void = printNotice): Config {
  const file = envFilePath();
  try {
    loadEnvFile(file);
    const resolved = resolveConfigPaths(loadConfig(), baseDir());
    if (resolved.notice) notice(resolved.notice);
    return resolved.config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(
      `${err.message}\nSet these in the environment or in ${file}; .env.example explains each variable.\n`,
    );
    process.exit(1);
  }
}

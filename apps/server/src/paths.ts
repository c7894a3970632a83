import { fileURLToPath } from 'node:url';

/*
 * Files the server reads at run time, located from this module. It sits one folder below the
 * server's package root, as the compiled entry points in `dist/` do, so the same relative paths
 * hold whether the server runs from source or compiled.
 */

/** The SQL migrations and their journal. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../drizzle/', import.meta.url));

/** The built web app, served when WEB_DIST does not name another. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The server's package folder (`apps/server`): npm runs the server's own scripts there, so it is
 * where a relative DATA_DIR led when resolved from the working directory instead of from the
 * folder the command was started in; an embedded database found there is still used.
 */
export const SERVER_DIR = fileURLToPath(new URL('../', import.meta.url));

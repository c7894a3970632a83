import { config } from 'zod/v4/core';

/*
 * The web app's `zod` (vite.config.ts points the bare name here). Zod compiles object parsers with
 * `new Function` when it may, and finds out by trying once: under the console's
 * Content-Security-Policy (no 'unsafe-eval') that try is reported as a policy violation on every
 * screen. Jitless parsing never tries. Set here, it holds before any schema of any screen parses,
 * and Zod loads with the first screen that uses it, not with the sign-in page.
 */
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';

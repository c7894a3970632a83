import { z } from 'zod';

/*
 * Zod compiles object parsers with `new Function` when it may, and finds out by trying once: under
 * the console's Content-Security-Policy (no 'unsafe-eval') that try is reported as a policy
 * violation on every screen. Jitless parsing never tries. Imported first by main.tsx, before any
 * schema is used.
 */
z.config({ jitless: true });

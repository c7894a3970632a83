import { defineConfig } from 'vitest/config';

/** Measured at company volume in a real browser; slow, so run on its own (`npm run test:scale`). */
const scale = {
  test: {
    name: 'scale',
    include: ['apps/web/e2e/scale/**/*.scale.ts'],
    environment: 'node',
    globalSetup: ['apps/server/test/support/migrated-database.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 30_000 } },
  },
};

/**
 * Projects: `unit` (pure functions), `api` (HTTP against a real database: PGlite, or PostgreSQL
 * when DATABASE_URL is set), `web` (components in jsdom), `e2e` (a real browser) and `scale` (a browser at company volume, run
 * on its own).
 */
export default defineConfig({
  test: {
    // The JSON report lets CI add up passes and failures across its database runs.
    reporters: ['default', 'json'],
    outputFile: { json: process.env.VITEST_JSON ?? 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/test/**/*.test.ts', 'apps/server/test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          sequence: { groupOrder: 2 },
          include: ['apps/server/test/api/**/*.test.ts'],
          environment: 'node',
          // One database migrated for the run, copied for each file (test/support/migrated-database.ts).
          globalSetup: ['apps/server/test/support/migrated-database.ts'],
          // Generous: a busy 2-core machine can take long to start a database and hash passwords.
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // PGlite instances are large; two at a time fit the 2-core machine best.
          maxWorkers: 2,
          // A worker imports the server once for all its files, not once per file: on two cores
          // the PGlite pass took 201 s instead of 335, the PostgreSQL one 99 s instead of 192.
          // Each file builds its own app over its own database copy; nothing here mocks a module
          // or stubs the environment, and the one test that changes a definition puts it back.
          isolate: false,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          sequence: { groupOrder: 1 },
          root: './apps/web',
          include: ['test/**/*.test.tsx', 'test/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['./test/setup.ts'],
          // A screen test walks through sign-in dialogs and pages; on a loaded 2-core machine one
          // took just over the default 5 s while passing alone in under 2 s.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 3 },
          // A real browser on a loaded 2-core machine can miss a 1-second toast; a second try
          // tells that apart from a failure, which fails both times.
          retry: 1,
          include: ['apps/web/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/support/migrated-database.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A poll's default second is short for a browser on a loaded machine.
          expect: { poll: { timeout: 10_000 } },
          // Each file has its own server, database and browser; one file at a time kept the two
          // cores less than half busy, mostly waiting on the page.
          maxWorkers: 2,
        },
      },
      // Only when asked for: minutes of seeding and scrolling, with figures rather than verdicts.
      ...(process.env.WFC_SCALE ? [scale] : []),
    ],
  },
});

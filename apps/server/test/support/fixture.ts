import { afterAll, beforeAll } from 'vitest';

/**
 * Builds `create()` before the tests of the file (or of the describe block it is called in) and
 * closes it after them. What it returns stands in for the built value from the first hook on, so
 * a test file needs neither a `let` nor hooks of its own. Hooks registered later run after the
 * build and, as Vitest runs after-hooks in reverse, before the close.
 */
export function sharedFixture<T extends { close(): Promise<void> }>(create: () => Promise<T>): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await create();
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as T, {
    get(_target, key) {
      // Not a promise: `await` and `return` from an async function must not wait on it.
      if (key === 'then') return undefined;
      if (!current) throw new Error(`${String(key)} read before beforeAll built the fixture`);
      return Reflect.get(current, key);
    },
  });
}

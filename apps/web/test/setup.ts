import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { startedRegistryPrefetch } from '../src/registry/prefetch';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom has no layout and reports scrollTo as "not implemented" on the console; the shell
// scrolls on every navigation, so a silent no-op keeps test output meaningful.
window.scrollTo = () => undefined;

// The modules screen fetches the registry's screens in the background; a file that ends before
// that fetch does would tear the environment down under it (an unhandled error that fails the run).
afterAll(async () => {
  await startedRegistryPrefetch();
});

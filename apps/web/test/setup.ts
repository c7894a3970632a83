import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// jsdom has no layout and reports scrollTo as "not implemented" on the console; the shell
// scrolls on every navigation, so a silent no-op keeps test output meaningful.
window.scrollTo = () => undefined;

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Zod, jitless, wherever it is imported (src/app/zodJitless.ts); the shim's own import of
    // `zod/v4` is not the bare name, so it reaches the package.
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/app/zodJitless.ts', import.meta.url)) },
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bundle-report.ts reads the chunk graph from it to weigh what each route loads.
    // It lands in dist/.vite/, which the server does not serve (no dotfiles).
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});

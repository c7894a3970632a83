import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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

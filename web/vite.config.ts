import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The browser UI. Built with `vite build web` (root = web/), into web/dist, which the server serves at `/`
 * (src/server/routes/web-routes.ts).
 */
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The LangGraph SDK client is most of the bundle (~190 kB gzipped); the UI is served from the same machine.
    chunkSizeWarningLimit: 1000,
  },
});

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
    rolldownOptions: {
      output: {
        // The libraries in chunks of their own, so a change to the UI's code leaves them cached in the browser.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'langgraph-sdk', test: /node_modules[\\/]@langchain[\\/]langgraph-sdk[\\/]/ },
          ],
        },
      },
    },
    // Set on purpose above pdf.js (~1.6 MB minified, ~0.5 MB gzipped): one library that cannot be split, loaded only
    // when a PDF citation is opened (render-pdf-page.ts imports it lazily). Every chunk loaded at start is far below.
    chunkSizeWarningLimit: 1700,
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { RequirementsReporter } from './src/testing/requirements-reporter.ts';

export default defineConfig({
  // The package's own name means its sources here (as tsconfig.json's paths say), not the compiled dist/.
  resolve: {
    alias: [
      { find: /^evident$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      {
        find: /^evident\/langchain$/,
        replacement: fileURLToPath(new URL('./src/adapters/langchain/index.ts', import.meta.url)),
      },
      {
        find: /^evident\/ai-sdk$/,
        replacement: fileURLToPath(new URL('./src/adapters/ai-sdk/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The CLI's tests run bin/evident.js, i.e. dist/: built here when src/ changed since the last build.
    globalSetup: ['./src/testing/build-before-tests.ts'],
    // The summary of tests skipped for a missing dataset, browser, database or model (src/testing/requirements.ts).
    reporters: ['default', new RequirementsReporter()],
  },
});

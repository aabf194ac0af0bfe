import { defineConfig } from 'vitest/config';
import { RequirementsReporter } from './src/testing/requirements-reporter.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The summary of tests skipped for a missing dataset, browser, database or model (src/testing/requirements.ts).
    reporters: ['default', new RequirementsReporter()],
  },
});

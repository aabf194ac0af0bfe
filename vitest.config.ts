import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { RequirementsReporter } from './src/testing/requirements-reporter.ts';
import { SlowFilesFirstSequencer } from './src/testing/slow-files-first-sequencer.ts';

const TESTS = ['src/**/*.test.ts', 'bench/**/*.test.ts', 'web/src/**/*.test.ts'];
/** Files that start servers, browsers, databases or processes (the naming rule of the test files). */
const INTEGRATION = TESTS.map((glob) => glob.replace('*.test.ts', '*.int.test.ts'));

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
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker per core (vitest's default leaves one to its own process, i.e. one worker on 2 cores): the files wait
    // on PostgreSQL, Chromium, child processes and sockets much of the time, so two keep both cores busy. Files never
    // share state: each has its own temp dirs, SQLite files, PostgreSQL schemas and ports.
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files first, so the run does not end with one of them alone (src/testing/slow-files-first-sequencer.ts).
    sequence: { sequencer: SlowFilesFirstSequencer },
    // The CLI's tests run bin/evident.js, i.e. dist/: built here when src/ changed since the last build.
    globalSetup: ['./src/testing/build-before-tests.ts'],
    // The summary of tests skipped for a missing dataset, browser, database or model (src/testing/requirements.ts).
    reporters: ['default', new RequirementsReporter()],
    // Unit files share their worker's modules (isolate: false): each file no longer imports and evaluates the sources
    // it reaches anew in a fresh process, which was most of a short file's time (40 unit files: 153 -> 65 s of CPU).
    // They mock no module and restore what they change (environment variables, spies). Integration files (servers,
    // browsers, PostgreSQL, child processes, process-wide settings) keep a fresh process each. The sequencer queues
    // the unit files together, so a worker goes on from one to the next.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: TESTS, exclude: [...configDefaults.exclude, ...INTEGRATION], isolate: false },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, isolate: true } },
    ],
  },
});

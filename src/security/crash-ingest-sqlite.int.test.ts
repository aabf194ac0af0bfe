import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledCli } from '../testing/cli-bundle.ts';
import { referenceSnapshots, runCrashTrials, writeCrashCorpus, type CrashBackend } from '../testing/crash-ingest.ts';
import { sqliteIntegrity, sqliteSnapshot } from '../testing/store-integrity.ts';
import { expectCrashSafe } from '../testing/crash-expectations.ts';

/**
 * SIGKILL of a real `evident ingest` child process (`node <cli> --db … ingest …`) at seeded random points — before
 * the first file is done and inside later files — onto empty stores and onto stores holding the other version of
 * the files. Most children run the CLI bundled from the same sources (half the start-up CPU, so 25 kills stay
 * bounded); some run `node bin/evident.js` itself. `npm run bench:crash` runs more, all through bin/evident.js.
 */
const SEED = 12_003;
const POINTS = 25;
const FILES = 12;

const root = mkdtempSync(join(tmpdir(), 'evident-crash-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sqlite: CrashBackend = {
  name: 'SQLite',
  fresh: async (trial) => ['--db', join(root, `store-${trial < 0 ? `ref${-trial}` : trial}.db`)],
  integrity: async (flags) => sqliteIntegrity(flags[1] as string),
  snapshot: async (flags) => sqliteSnapshot(flags[1] as string),
};

let bundle: string;
beforeAll(async () => {
  bundle = await bundledCli();
});

describe('SIGKILL of evident ingest on SQLite', () => {
  it(`leaves a sound store of whole documents at ${POINTS} random points, and a re-run converges to an uninterrupted ingest`, async () => {
    const versions = writeCrashCorpus(join(root, 'corpus'), FILES);
    const { references, perFileMs } = await referenceSnapshots(sqlite, versions);
    const trials = await runCrashTrials(sqlite, {
      seed: SEED,
      points: POINTS,
      versions,
      cwd: root,
      references,
      perFileMs,
      files: FILES + 3,
      bundle,
      realEvery: 12,
    });
    expectCrashSafe(trials, references, POINTS);
  }, 600_000);
});

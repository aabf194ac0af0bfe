import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { withSchema } from '../store/postgres/drop-store.ts';
import { bundledCli } from '../testing/cli-bundle.ts';
import { expectCrashSafe } from '../testing/crash-expectations.ts';
import { referenceSnapshots, runCrashTrials, writeCrashCorpus, type CrashBackend } from '../testing/crash-ingest.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { postgresIntegrity, postgresSnapshot } from '../testing/store-integrity.ts';

/**
 * SIGKILL of `evident --database-url … ingest …` at seeded random points, as crash-ingest-sqlite does: each kill on a
 * fresh schema (killed before, during or after its migrations) or on one holding the other version; after each, the
 * consistency query (every chunk's document exists, chunk counts, keyword postings and statistics, vectors, ingested
 * tables) and whole documents; then a re-run that must converge to an uninterrupted ingest.
 */
const SEED = 12_004;
const POINTS = 25;
const FILES = 12;

describeWithPostgres('SIGKILL of evident ingest on PostgreSQL', (url) => {
  const root = mkdtempSync(join(tmpdir(), 'evident-crash-postgres-'));
  const schemas: string[] = [];
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundledCli();
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await dropSchemas(url, schemas);
  });

  const schemaOf = (flags: readonly string[]) => new URL(flags[1] as string).searchParams.get('schema') as string;
  const postgres: CrashBackend = {
    name: 'PostgreSQL',
    fresh: async () => {
      const schema = freshSchema('evident_crash');
      schemas.push(schema);
      return ['--database-url', withSchema(url, schema)];
    },
    integrity: (flags) => postgresIntegrity(url, schemaOf(flags)),
    snapshot: (flags) => postgresSnapshot(url, schemaOf(flags)),
  };

  it(`leaves a consistent store of whole documents at ${POINTS} random points, and a re-run converges to an uninterrupted ingest`, async () => {
    const versions = writeCrashCorpus(join(root, 'corpus'), FILES);
    const { references, perFileMs } = await referenceSnapshots(postgres, versions);
    const trials = await runCrashTrials(postgres, {
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

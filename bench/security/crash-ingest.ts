/**
 * SIGKILL of `evident ingest` at seeded random points, full size: the real `node bin/evident.js` by default, on SQLite
 * and (with --database-url) on PostgreSQL. After every kill the store's integrity check must pass, every document
 * must be whole (the old version or the new one), and finishing the ingest must give an uninterrupted ingest's store.
 * Prints one row per trial and a summary per backend, writes JSON. The bounded CI version is
 * src/security/crash-ingest-*.int.test.ts.
 *
 *   npm run bench:crash -- [--points 50] [--files 12] [--cli real|bundle] [--database-url postgres://…] [--json out.json]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundledCli } from '../../src/testing/cli-bundle.ts';
import {
  referenceSnapshots,
  runCrashTrials,
  writeCrashCorpus,
  type CrashBackend,
  type CrashTrial,
} from '../../src/testing/crash-ingest.ts';
import { dropSchemas, freshSchema } from '../../src/testing/postgres-test-database.ts';
import {
  postgresIntegrity,
  postgresSnapshot,
  sqliteIntegrity,
  sqliteSnapshot,
} from '../../src/testing/store-integrity.ts';
import { withSchema } from '../../src/store/postgres/drop-store.ts';
import { describeEnvironment } from '../environment.ts';

const { values: flags } = parseArgs({
  options: {
    points: { type: 'string', default: '50' },
    files: { type: 'string', default: '12' },
    seed: { type: 'string', default: '12003' },
    cli: { type: 'string', default: 'real' },
    'database-url': { type: 'string' },
    'no-sqlite': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
  strict: true,
});

const positive = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return parsed;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const points = positive('points', flags.points);
  const files = positive('files', flags.files);
  const seed = positive('seed', flags.seed);
  if (flags.cli !== 'real' && flags.cli !== 'bundle') throw new Error('--cli is real or bundle');
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const root = mkdtempSync(join(tmpdir(), 'evident-bench-crash-'));
  const schemas: string[] = [];
  const backends: CrashBackend[] = [];
  if (!flags['no-sqlite']) {
    backends.push({
      name: 'SQLite',
      fresh: async (trial) => ['--db', join(root, `sqlite-${trial}.db`)],
      integrity: async (storeFlags) => sqliteIntegrity(storeFlags[1] as string),
      snapshot: async (storeFlags) => sqliteSnapshot(storeFlags[1] as string),
    });
  }
  const url = flags['database-url'];
  if (url) {
    const schemaOf = (storeFlags: readonly string[]) =>
      new URL(storeFlags[1] as string).searchParams.get('schema') as string;
    backends.push({
      name: 'PostgreSQL',
      fresh: async () => {
        const schema = freshSchema('evident_bench_crash');
        schemas.push(schema);
        return ['--database-url', withSchema(url, schema)];
      },
      integrity: (storeFlags) => postgresIntegrity(url, schemaOf(storeFlags)),
      snapshot: (storeFlags) => postgresSnapshot(url, schemaOf(storeFlags)),
    });
  }
  const results: { backend: string; trials: CrashTrial[] }[] = [];
  try {
    const versions = writeCrashCorpus(join(root, 'corpus'), files);
    const bundle = flags.cli === 'bundle' ? await bundledCli() : undefined;
    for (const backend of backends) {
      const { references, perFileMs } = await referenceSnapshots(backend, versions);
      process.stderr.write(
        `${backend.name}: ${references[0]?.length} documents, ${perFileMs.toFixed(0)} ms per document\n`,
      );
      const trials = await runCrashTrials(backend, {
        seed,
        points,
        versions,
        cwd: root,
        references,
        perFileMs,
        files: files + 3,
        ...(bundle ? { bundle } : {}),
        onTrial: (trial) =>
          process.stderr.write(
            `${backend.name} #${trial.trial} ${trial.from}→${trial.to} killed ${trial.point}: ${trial.present} present, ${trial.updated} new, ${trial.problems.length} problems\n`,
          ),
      });
      results.push({ backend: backend.name, trials });
    }
  } finally {
    if (url) await dropSchemas(url, schemas);
    rmSync(root, { recursive: true, force: true });
  }
  const environment = describeEnvironment('bench/security/crash-ingest.ts', started, loadBefore);
  const lines = [
    `# Crash test: SIGKILL of evident ingest (seed ${seed}, ${flags.cli === 'real' ? 'node bin/evident.js' : 'bundled CLI'})`,
    '',
    `${environment.date}, ${environment.cpus} × ${environment.nproc}, Node ${environment.node}, commit ${environment.commit}, load ${environment.loadBefore.toFixed(1)} → ${environment.loadAfter.toFixed(1)}, ${environment.totalSeconds.toFixed(0)} s`,
    '',
    '| backend | kills | before any file | mid-ingest | onto a full store | problems | docs present after kill (median) | ms to kill (median) | s per trial (median) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(({ backend, trials }) => {
      const early = trials.filter((trial) => trial.killed.markersSeen === 0).length;
      const problems = trials.reduce((sum, trial) => sum + trial.problems.length, 0);
      return `| ${backend} | ${trials.length} | ${early} | ${trials.length - early} | ${trials.filter((trial) => trial.from !== 'fresh').length} | ${problems} | ${median(trials.map((trial) => trial.present))} | ${median(trials.map((trial) => trial.killed.elapsedMs)).toFixed(0)} | ${(median(trials.map((trial) => trial.ms)) / 1000).toFixed(1)} |`;
    }),
  ];
  const problems = results.flatMap(({ backend, trials }) =>
    trials.flatMap((trial) =>
      trial.problems.map((problem) => `${backend} #${trial.trial} (${trial.point}): ${problem}`),
    ),
  );
  if (problems.length) lines.push('', 'Problems:', ...problems.slice(0, 20).map((problem) => `- ${problem}`));
  process.stdout.write(`${lines.join('\n')}\n`);
  if (flags.json) {
    const strip = (trial: CrashTrial) => ({
      ...trial,
      killed: {
        outcome: trial.killed.outcome,
        signal: trial.killed.signal,
        elapsedMs: trial.killed.elapsedMs,
        markersSeen: trial.killed.markersSeen,
      },
    });
    writeFileSync(
      flags.json,
      `${JSON.stringify({ environment, seed, cli: flags.cli, results: results.map((r) => ({ backend: r.backend, trials: r.trials.map(strip) })) }, null, 2)}\n`,
    );
  }
  if (problems.length) process.exitCode = 1;
}

await main();

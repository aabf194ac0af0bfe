/**
 * The full-size table leak fuzz: seeded statements about a table only finance may read (src/testing/table-probes.ts),
 * asked by a member of engineering through the store and through the audited path the CLI and MCP take, on SQLite and,
 * with --database-url, on PostgreSQL (where functions run SQL text of their own). Each must come back without the
 * table's secret and as the same statement about a missing table does. The bounded CI version is
 * src/security/table-leak-fuzz.int.test.ts.
 *
 *   npm run bench:table-fuzz -- [--probes 2000] [--seed 20261205] [--database-url postgres://…]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { createEvident } from '../../src/evident.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import { runTableFuzz, writeTableFuzzCorpus } from '../../src/testing/table-probes.ts';
import { describeEnvironment } from '../environment.ts';

const { values: flags } = parseArgs({
  options: {
    probes: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '20261205' },
    'database-url': { type: 'string' },
  },
  strict: true,
});
const probes = Number(flags.probes);
const seed = Number(flags.seed);
if (!Number.isInteger(probes) || probes < 2 || !Number.isInteger(seed)) {
  process.stderr.write('--probes must be a whole number of at least 2, --seed a whole number.\n');
  process.exit(2);
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const work = mkdtempSync(join(tmpdir(), 'evident-bench-table-fuzz-'));
writeTableFuzzCorpus(join(work, 'docs'));
const backends: { name: string; flags: Record<string, string>; cleanup: () => Promise<void> }[] = [
  { name: 'SQLite', flags: { db: join(work, 'store.db') }, cleanup: async () => undefined },
];
const url = flags['database-url'];
if (url) {
  const schemaUrl = withSchema(url, `evident_bench_table_fuzz_${process.pid}`);
  backends.push({ name: 'PostgreSQL', flags: { databaseUrl: schemaUrl }, cleanup: () => dropPostgresStore(schemaUrl) });
}
const rows: string[] = [];
let failed = false;
try {
  for (const backend of backends) {
    const evident = await createEvident(loadConfig({ flags: backend.flags, env: {} }));
    try {
      await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
      await evident.ingestor.ingest([join(work, 'docs')]);
      const began = performance.now();
      const result = await runTableFuzz(evident, await evident.principalFor('bob'), {
        count: Math.floor(probes / 2),
        seed,
        postgres: backend.name === 'PostgreSQL',
      });
      const seconds = (performance.now() - began) / 1000;
      failed ||= result.leaks.length > 0 || result.differs.length > 0;
      rows.push(
        `| ${backend.name} | ${result.probes} | ${result.leaks.length} | ${result.differs.length} | ${seconds.toFixed(1)} s |`,
      );
      for (const sql of [...result.leaks, ...result.differs].slice(0, 5)) process.stderr.write(`${sql}\n`);
    } finally {
      await evident.close();
      await backend.cleanup();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const environment = describeEnvironment('bench/security/table-fuzz.ts', started, loadBefore);
process.stdout.write(
  `Table leak fuzz — commit ${environment.commit}, seed ${seed}, load ${environment.loadBefore.toFixed(2)} → ${environment.loadAfter.toFixed(2)} (${environment.nproc} CPUs)\n\n` +
    `| store | probes (store + audited path) | answers holding the secret | answered otherwise than a missing table | time |\n|---|---:|---:|---:|---:|\n${rows.join('\n')}\n`,
);
process.exit(failed ? 1 : 0);

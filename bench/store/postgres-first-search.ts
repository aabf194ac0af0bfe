/**
 * A new process's first vector search on a PostgreSQL store, which loads the int8 codes of every vector
 * (vector-codes.ts), against another checkout's on a store of its schema: each measurement is a child process that
 * opens the store, times one admin vector search (wall and its own CPU) and a second one, the checkouts alternating.
 *
 *   node --import tsx bench/store/postgres-first-search.ts --database-url postgres://…/db?schema=… [--rounds 3]
 *        [--baseline <checkout> --baseline-url postgres://…/db?schema=…]
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    'baseline-url': { type: 'string' },
    child: { type: 'string' },
    dimension: { type: 'string', default: '512' },
  },
  strict: true,
});

if (flags.child) {
  // In the child: open the store of checkout `--child`, search twice, print one JSON line.
  const { openPostgresStore } = (await import(join(flags.child, 'src/store/postgres/store.ts'))) as {
    openPostgresStore: (url: string) => Promise<{
      vectorSearch: (v: Float32Array, p: unknown, k: number) => Promise<unknown[]>;
      close: () => Promise<void>;
    }>;
  };
  const admin = { id: 'bench-admin', groups: [], roles: ['admin'] };
  const query = new Float32Array(Number(flags.dimension)).map((_, i) => Math.sin(i + 1));
  const store = await openPostgresStore(flags['database-url'] as string);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await store.vectorSearch(query, admin, 10);
  const used = process.cpuUsage(cpu);
  const t1 = performance.now();
  await store.vectorSearch(query, admin, 10);
  const second = performance.now() - t1;
  await store.close();
  console.log(
    JSON.stringify({ first: t1 - t0, cpu: (used.user + used.system) / 1000, second, rss: process.memoryUsage().rss }),
  );
} else {
  if (!flags['database-url']) throw new Error('--database-url postgres://…?schema=… is required');
  const here = resolve(import.meta.dirname, '../..');
  const sides: [string, string, string][] = [['this checkout', here, flags['database-url']]];
  if (flags.baseline) {
    if (!flags['baseline-url']) throw new Error('--baseline needs --baseline-url');
    sides.push(['baseline', resolve(flags.baseline), flags['baseline-url']]);
  }
  console.log('| round | checkout | first search ms | its CPU ms | second search ms | RSS MiB | load |');
  console.log('|---:|---|---:|---:|---:|---:|---:|');
  for (let round = 0; round < Number(flags.rounds); round++) {
    for (const [name, dir, url] of sides) {
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(here, 'bench/store/postgres-first-search.ts'),
          '--child',
          dir,
          '--database-url',
          url,
          '--dimension',
          flags.dimension,
        ],
        { encoding: 'utf8', env: { ...process.env, EVIDENT_DEV: '1' } },
      );
      const r = JSON.parse(out.trim().split('\n').at(-1) as string) as {
        first: number;
        cpu: number;
        second: number;
        rss: number;
      };
      console.log(
        `| ${round} | ${name} | ${r.first.toFixed(0)} | ${r.cpu.toFixed(0)} | ${r.second.toFixed(0)} | ${(r.rss / 2 ** 20).toFixed(0)} | ${(loadavg()[0] ?? 0).toFixed(1)} |`,
      );
    }
  }
}

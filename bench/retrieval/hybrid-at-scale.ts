/**
 * Hybrid search on one existing store, as it is: the store's own chunk and document counts (a store whose build was
 * stopped part way counts what it holds), the open, the first search, then member searches without and with the
 * offline rerank and admin searches, each row after its warm-up; CPU per search (the process's, helper threads
 * included), the process's RSS after the searches, and the store's size on disk (database, WAL, vector snapshot).
 *
 *   node --expose-gc --import tsx bench/retrieval/hybrid-at-scale.ts --store <dir with bench.db> \
 *        [--compare <checkout>] [--queries 100] [--warmup 20] [--seed 42]
 *
 * The store is one `npm run bench:retrieval -- --store-dir <dir>` built or was building (`<dir>/size-<n>`), with the
 * same seed; queries name documents the store holds. With --compare the searches run from that checkout's src/
 * instead (one side per process: memory is per side).
 */
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { generateQueries, SyntheticCorpus } from './corpus.ts';
import { collectGarbage, summarize } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    store: { type: 'string' },
    compare: { type: 'string' },
    queries: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
  },
  strict: true,
});
if (!flags.store) throw new Error('usage: --store <dir with bench.db> [--compare <checkout>]');

const MEMBER = { id: 'bench-user', groups: ['engineering', 'support'], roles: ['member'] };
const ADMIN = { id: 'bench-admin', groups: [], roles: ['admin'] };
const dir = resolve(flags.store);
const db = join(dir, 'bench.db');
const src = flags.compare ? resolve(flags.compare, 'src') : resolve(import.meta.dirname, '../../src');

const counts = (() => {
  const handle = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return handle
      .prepare('SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks')
      .get() as {
      documents: number;
      chunks: number;
    };
  } finally {
    handle.close();
  }
})();
const sizeMiB = () =>
  readdirSync(dir)
    .filter((name) => name.startsWith('bench.db') || name.startsWith('.bench.db'))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0) /
  (1024 * 1024);

const seed = Number(flags.seed);
const corpus = new SyntheticCorpus({ seed });
// Document indexes below the store's document count: a partial build holds the first documents of the corpus.
const queries = generateQueries(corpus, counts.documents, Number(flags.queries), seed + 1);
const warm = generateQueries(corpus, counts.documents, Number(flags.warmup), seed + 2);

const loadBefore = loadavg()[0] ?? 0;
const { createEvident } = await import(join(src, 'evident.ts'));
const { loadConfig } = await import(join(src, 'config/index.ts'));
const config = loadConfig({
  env: {},
  cwd: dir,
  flags: { reranker: 'offline', retrieval: { channels: ['bm25', 'vector'] }, db },
});
let t = performance.now();
const evident = await createEvident(config);
await evident.assertEmbedderMatches();
const openMs = performance.now() - t;
t = performance.now();
await evident.search.search((warm[0] as { text: string }).text, MEMBER);
const firstMs = performance.now() - t;

const rows: [string, (text: string) => Promise<unknown>][] = [
  ['hybrid: bm25 + vector, no rerank (member)', (text) => evident.search.search(text, MEMBER, { rerank: false })],
  ['hybrid: bm25 + vector + offline rerank (member)', (text) => evident.search.search(text, MEMBER)],
  ['hybrid: bm25 + vector, no rerank (admin)', (text) => evident.search.search(text, ADMIN, { rerank: false })],
];
const lines = ['| row | p50 / p95 ms | CPU mean ms |', '| --- | ---: | ---: |'];
for (const [name, run] of rows) {
  for (const query of warm) await run(query.text);
  collectGarbage();
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (const query of queries) {
    const started = performance.now();
    await run(query.text);
    samples.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  const stats = summarize(samples);
  lines.push(
    `| ${name} | ${stats.p50.toFixed(1)} / ${stats.p95.toFixed(1)} | ${((used.user + used.system) / 1000 / queries.length).toFixed(2)} |`,
  );
}
const rssMiB = process.memoryUsage().rss / (1024 * 1024);
await evident.close();
process.stdout.write(
  `${lines.join('\n')}\n\n${counts.chunks} chunks in ${counts.documents} documents (${src}); open ${openMs.toFixed(0)} ms, ` +
    `first search ${firstMs.toFixed(0)} ms; RSS after the searches ${rssMiB.toFixed(0)} MiB; store ${sizeMiB().toFixed(0)} MiB ` +
    `on disk; ${queries.length} queries per row after ${warm.length} warm-up; load ${loadBefore.toFixed(2)} → ` +
    `${(loadavg()[0] ?? 0).toFixed(2)}.\n`,
);

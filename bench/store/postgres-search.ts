/**
 * The PostgreSQL store's read side next to SQLite's, on the retrieval bench's synthetic corpus: both stores hold the
 * same documents (bench/store/postgres-tee-load.ts), then the keyword channel, the vector channel and the hybrid
 * search (both channels fused, no rerank) are timed one call at a time, the two backends interleaved query by query,
 * for the bench's ACL-filtered member and for an admin; then each store's size, PostgreSQL's per table.
 *
 *   node --import tsx bench/store/postgres-search.ts --database-url postgres://… [--chunks 100000] [--queries 100]
 *        [--warmup 20] [--seed 42] [--keep <dir>] [--baseline <checkout> --baseline-url postgres://…]
 *
 * --baseline times another checkout's PostgreSQL store (its src/store/postgres, behind this checkout's search
 * pipeline) on a store of its own schema (--baseline-url, e.g. a copy of the same database made before this
 * checkout's migrations ran: CREATE DATABASE … TEMPLATE …), interleaved query by query with the other two: a
 * before/after under the same load. Its size is reported beside.
 *
 * --keep <dir> keeps the SQLite store in <dir> and the PostgreSQL scratch schema (evident_pgsearch_<chunks>); a later
 * run with the same --keep measures them again (migrating the PostgreSQL schema first, as any open does) instead
 * of loading anew. Without it both are dropped at the end.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Principal } from '../../src/domain/index.ts';
import { createEvident, type Evident } from '../../src/evident.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import type { Store } from '../../src/store/store.ts';
import { analyzeQuery } from '../../src/text/analyzer.ts';
import { generateQueries, SyntheticCorpus } from '../retrieval/corpus.ts';
import { benchConfig, MEMBER } from '../retrieval/measure-size.ts';
import { summarize } from '../retrieval/stats.ts';
import { postgresStoreBytes } from './postgres-store-size.ts';
import { teeLoad, withStoreClient } from './postgres-tee-load.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    keep: { type: 'string' },
    concurrency: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    'baseline-url': { type: 'string' },
  },
  strict: true,
});
if (!flags['database-url']) throw new Error('--database-url postgres://… is required');
const target = Number(flags.chunks);
const seed = Number(flags.seed);
const ADMIN: Principal = { id: 'bench-admin', groups: [], roles: ['admin'] };
const BOTH = { retrieval: { channels: ['bm25', 'vector'] as ('bm25' | 'vector')[] }, reranker: 'none' };
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const log = (line: string) => process.stderr.write(`${line}\n`);

const workDir = flags.keep ?? mkdtempSync(join(tmpdir(), 'evident-pgsearch-'));
mkdirSync(workDir, { recursive: true });
const dbPath = join(workDir, 'bench.db');
const databaseUrl = withSchema(flags['database-url'], `evident_pgsearch_${target}`);
const reuse = flags.keep !== undefined && existsSync(dbPath);

const sqlite = await createEvident(benchConfig(workDir, dbPath, BOTH));
const opening = performance.now();
const pgStore = await openPostgresStore(databaseUrl);
log(
  `opened ${databaseUrl} in ${((performance.now() - opening) / 1000).toFixed(1)} s (a kept store of an older schema is migrated here)`,
);
const pgServices = await createEvident(benchConfig(workDir, dbPath, { ...BOTH, databaseUrl }), { store: pgStore });
const corpus = new SyntheticCorpus({ seed });
let documents = 0;
if (reuse) {
  documents = (await sqlite.store.listDocuments(ADMIN)).length;
  log(`reusing ${workDir} (${documents} documents) and schema ${databaseUrl}`);
} else {
  log(`loading ${target} chunks into ${dbPath} and ${databaseUrl} (load ${load()})`);
  function* records() {
    for (;;) yield corpus.document(documents++).record;
  }
  const loaded = await teeLoad(sqlite, pgStore, databaseUrl, records(), {
    concurrency: Number(flags.concurrency),
    maxChunks: target,
    log,
  });
  documents = loaded.documents;
  log(
    `loaded ${loaded.chunks} chunks, ${loaded.documents} documents in ${(loaded.loadMs / 1000).toFixed(0)} s (HNSW build ${(loaded.indexBuildMs / 1000).toFixed(0)} s), load ${load()}`,
  );
}
const stats = await sqlite.store.stats();
const visible = (await sqlite.store.listDocuments(MEMBER)).reduce((sum, doc) => sum + doc.chunkCount, 0);

const queries = generateQueries(corpus, documents, Number(flags.queries), seed + 1);
const warm = generateQueries(corpus, documents, Number(flags.warmup), seed + 2);
const prepare = async (list: typeof queries) =>
  Promise.all(
    list.map(async (q) => ({
      text: q.text,
      terms: analyzeQuery(q.text),
      vector: (await sqlite.embedder.embed([q.text], 'query'))[0] as Float32Array,
    })),
  );
const measured = await prepare(queries);
const warmed = await prepare(warm);

type Input = (typeof measured)[number];
const channelDepth = sqlite.config.retrieval.channelDepth;
// Another checkout's PostgreSQL store on a database of its own schema, behind this checkout's pipeline.
let baseline: { services: Evident; url: string } | undefined;
if (flags.baseline) {
  if (!flags['baseline-url']) throw new Error('--baseline needs --baseline-url postgres://… (a store of its schema)');
  const url = withSchema(flags['baseline-url'], `evident_pgsearch_${target}`);
  const module = (await import(join(flags.baseline, 'src/store/postgres/store.ts'))) as {
    openPostgresStore: (url: string) => Promise<Store>;
  };
  const store = await module.openPostgresStore(url);
  baseline = {
    url,
    services: await createEvident(benchConfig(workDir, dbPath, { ...BOTH, databaseUrl: url }), { store }),
  };
}

type Run = (i: Input, p: Principal) => Promise<unknown>;
const on = (e: Evident) => ({
  keyword: ((i, p) => e.store.keywordSearch(i.terms, p, channelDepth)) as Run,
  vector: ((i, p) => e.store.vectorSearch(i.vector, p, channelDepth)) as Run,
  hybrid: ((i, p) => e.search.search(i.text, p, { rerank: false })) as Run,
});
const [s, g] = [on(sqlite), on(pgServices)];
const b = baseline ? on(baseline.services) : undefined;
/** Each stage: SQLite, PostgreSQL, and the baseline checkout's PostgreSQL store if given, run in turn for every query. */
const stages: { name: string; runs: Run[] }[] = [
  { name: 'keyword channel (BM25)', runs: [s.keyword, g.keyword, ...(b ? [b.keyword] : [])] },
  { name: 'vector channel', runs: [s.vector, g.vector, ...(b ? [b.vector] : [])] },
  { name: 'hybrid: bm25 + vector, no rerank', runs: [s.hybrid, g.hybrid, ...(b ? [b.hybrid] : [])] },
];

log(`measuring ${measured.length} queries per row (load ${load()})`);
const rows: string[] = [];
for (const [who, principal] of [
  ['member', MEMBER],
  ['admin', ADMIN],
] as const) {
  for (const stage of stages) {
    for (const run of stage.runs) for (const input of warmed) await run(input, principal);
    const samples = stage.runs.map((): number[] => []);
    const cpu = stage.runs.map(() => 0);
    for (const input of measured) {
      for (const [r, run] of stage.runs.entries()) {
        const before = process.cpuUsage();
        const started = performance.now();
        await run(input, principal);
        samples[r]?.push(performance.now() - started);
        const used = process.cpuUsage(before);
        cpu[r] = (cpu[r] ?? 0) + (used.user + used.system) / 1000;
      }
    }
    const [sq, pq, old] = samples.map((list) => summarize(list));
    const cell = (x: ReturnType<typeof summarize> | undefined) =>
      x ? `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)}` : '';
    rows.push(
      `| ${stage.name} | ${who} | ${cell(sq)} | ${cell(pq)} | ${((pq?.p50 ?? 0) / (sq?.p50 ?? 1)).toFixed(2)} | ${((cpu[1] ?? 0) / measured.length).toFixed(2)} | ${cell(old)} | ${old ? ((cpu[2] ?? 0) / measured.length).toFixed(2) : ''} | ${load()} |`,
    );
    log(rows.at(-1) as string);
  }
}

const sqliteBytes = ['', '-wal'].reduce(
  (sum, suffix) => sum + (existsSync(dbPath + suffix) ? statSync(dbPath + suffix).size : 0),
  0,
);
const tables = await withStoreClient(
  databaseUrl,
  async (c) =>
    (
      await c.query<{ name: string; heap: string; indexes: string; toast: string; total: string }>(
        `SELECT c.relname AS name, pg_relation_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes,
              coalesce(pg_total_relation_size(c.reltoastrelid), 0) AS toast, pg_total_relation_size(c.oid) AS total
       FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC`,
      )
    ).rows,
);
const mib = (bytes: number | string) => (Number(bytes) / 1024 / 1024).toFixed(1);
const pgBytes = tables.reduce((sum, t) => sum + Number(t.total), 0);
const baselineBytes = baseline ? await postgresStoreBytes(baseline.url) : undefined;

console.log(
  `\n${stats.chunks ?? '?'} chunks, ${documents} documents; the member sees ${visible} chunks; load average ${load()}\n`,
);
console.log(
  '| stage | principal | SQLite p50 / p95 ms | PostgreSQL p50 / p95 ms | PG / SQLite p50 | PG client CPU ms/query | PostgreSQL baseline p50 / p95 ms | baseline client CPU ms/query | load avg |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
console.log(
  `\n| store | MiB |\n|---|---:|\n| SQLite (file + WAL) | ${mib(sqliteBytes)} |\n| PostgreSQL (schema) | ${mib(pgBytes)} |\n| ratio | ${(pgBytes / sqliteBytes).toFixed(2)} |${
    baselineBytes === undefined
      ? ''
      : `\n| PostgreSQL baseline (schemas) | ${mib(baselineBytes)} |\n| baseline ratio | ${(baselineBytes / sqliteBytes).toFixed(2)} |`
  }`,
);
console.log('\n| PostgreSQL table | heap MiB | indexes MiB | TOAST MiB | total MiB |\n|---|---:|---:|---:|---:|');
for (const t of tables.filter((t) => Number(t.total) > 1024 * 1024))
  console.log(`| ${t.name} | ${mib(t.heap)} | ${mib(t.indexes)} | ${mib(t.toast)} | ${mib(t.total)} |`);

await baseline?.services.close();
await pgServices.close();
await sqlite.close();
if (!flags.keep) {
  await dropPostgresStore(databaseUrl);
  rmSync(workDir, { recursive: true, force: true });
}

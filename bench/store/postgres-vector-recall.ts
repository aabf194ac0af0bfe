/**
 * The PostgreSQL store's vector channel against exact search at scale: for each query (the retrieval bench's
 * synthetic queries, embedded by the offline embedder), the store's `vectorSearch` for an admin and for the bench's
 * ACL-filtered member, against the exact top k of the same rows (a sequential scan in the database ordering by the
 * float32 cosine distance, ties by pk, the member's filter in the statement), and against the SQLite store's answer
 * when its kept store is given. Prints recall@k, the share of queries answered exactly (the same ids in the same
 * order) and the channel's p50 / CPU per query; with --baseline, another checkout's store on its own database is
 * measured the same way, interleaved query by query.
 *
 *   node --import tsx bench/store/postgres-vector-recall.ts --database-url postgres://… [--chunks 100000]
 *        [--queries 50] [--k 100] [--sqlite-dir <postgres-search.ts --keep dir>]
 *        [--baseline <checkout> --baseline-url postgres://…]
 *
 * The stores are the ones `bench/store/postgres-search.ts --keep` leaves (schema evident_pgsearch_<chunks>).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Principal, principalAclKeys } from '../../src/domain/index.ts';
import { createEvident } from '../../src/evident.ts';
import { withSchema } from '../../src/store/postgres/drop-store.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import type { Store } from '../../src/store/store.ts';
import { generateQueries, SyntheticCorpus } from '../retrieval/corpus.ts';
import { benchConfig, MEMBER } from '../retrieval/measure-size.ts';
import { summarize } from '../retrieval/stats.ts';
import { withStoreClient } from './postgres-tee-load.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '50' },
    k: { type: 'string', default: '100' },
    seed: { type: 'string', default: '42' },
    'sqlite-dir': { type: 'string' },
    baseline: { type: 'string' },
    'baseline-url': { type: 'string' },
  },
  strict: true,
});
if (!flags['database-url']) throw new Error('--database-url postgres://… is required');
const target = Number(flags.chunks);
const k = Number(flags.k);
const seed = Number(flags.seed);
const ADMIN: Principal = { id: 'bench-admin', groups: [], roles: ['admin'] };
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const log = (line: string) => process.stderr.write(`${line}\n`);
const schema = `evident_pgsearch_${target}`;
const url = withSchema(flags['database-url'], schema);

type Side = { name: string; store: Store; url: string };
const sides: Side[] = [{ name: 'this checkout', store: await openPostgresStore(url), url }];
if (flags.baseline) {
  if (!flags['baseline-url']) throw new Error('--baseline needs --baseline-url postgres://…');
  const module = (await import(join(flags.baseline, 'src/store/postgres/store.ts'))) as {
    openPostgresStore: (url: string) => Promise<Store>;
  };
  const baselineUrl = withSchema(flags['baseline-url'], schema);
  sides.push({
    name: `baseline (${flags.baseline})`,
    store: await module.openPostgresStore(baselineUrl),
    url: baselineUrl,
  });
}
// The offline embedder of the bench (and the SQLite store when kept).
const workDir = flags['sqlite-dir'] ?? '/tmp';
const sqlite = await createEvident(benchConfig(workDir, join(workDir, 'bench.db'), {}));
const documents = flags['sqlite-dir'] ? (await sqlite.store.listDocuments(ADMIN)).length : Math.ceil(target / 10);
const corpus = new SyntheticCorpus({ seed });
const queries = await Promise.all(
  generateQueries(corpus, documents, Number(flags.queries), seed + 1).map(
    async (q) => (await sqlite.embedder.embed([q.text], 'query'))[0] as Float32Array,
  ),
);

/** The exact top k in the database: every visible row's float32 distance, no index. */
async function exact(side: Side, vector: Float32Array, principal: Principal): Promise<string[]> {
  return withStoreClient(side.url, async (c) => {
    await c.query('SET enable_indexscan = off');
    await c.query('SET enable_bitmapscan = off');
    const keys = principalAclKeys(principal);
    const member = keys !== undefined;
    const rows = await c.query<{ id: string }>(
      `SELECT c.id FROM documents d JOIN chunks c ON c.doc_pk = d.pk JOIN chunk_vectors v ON v.chunk_pk = c.pk
       WHERE ${member ? "(d.acl = '{}' OR d.acl && $2::text[])" : 'true'}
       ORDER BY v.embedding <=> $1::vector, c.pk LIMIT ${k}`,
      [`[${Array.from(vector).join(',')}]`, ...(member ? [[...keys]] : [])],
    );
    return rows.rows.map((row) => row.id);
  });
}

log(`${queries.length} queries, k ${k}, ${sides.length} PostgreSQL store(s), load ${load()}`);
const lines: string[] = [];
for (const [who, principal] of [
  ['member', MEMBER],
  ['admin', ADMIN],
] as const) {
  // Warm-up: the first search of a process loads its codes (timed apart).
  for (const side of sides) {
    const started = performance.now();
    await side.store.vectorSearch(queries[0] as Float32Array, principal, k);
    log(`${side.name} ${who}: first search ${(performance.now() - started).toFixed(0)} ms (load ${load()})`);
  }
  const stats = sides.map(() => ({ found: 0, wanted: 0, same: 0, sameAsSqlite: 0, ms: [] as number[], cpu: 0 }));
  let sqliteRecall = 0;
  for (const vector of queries) {
    const truth = await exact(sides[0] as Side, vector, principal);
    const fromSqlite = flags['sqlite-dir']
      ? (await sqlite.store.vectorSearch(vector, principal, k)).map((h) => h.chunkId)
      : undefined;
    if (fromSqlite) sqliteRecall += fromSqlite.filter((id) => truth.includes(id)).length / truth.length;
    for (const [i, side] of sides.entries()) {
      const s = stats[i] as (typeof stats)[number];
      const cpu = process.cpuUsage();
      const started = performance.now();
      const ids = (await side.store.vectorSearch(vector, principal, k)).map((h) => h.chunkId);
      s.ms.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      s.cpu += (used.user + used.system) / 1000;
      const wanted = new Set(truth);
      s.found += ids.filter((id) => wanted.has(id)).length;
      s.wanted += truth.length;
      if (ids.join() === truth.join()) s.same++;
      if (fromSqlite && ids.join() === fromSqlite.join()) s.sameAsSqlite++;
    }
  }
  for (const [i, side] of sides.entries()) {
    const s = stats[i] as (typeof stats)[number];
    const t = summarize(s.ms);
    lines.push(
      `| ${side.name} | ${who} | ${(s.found / s.wanted).toFixed(3)} | ${s.same}/${queries.length} | ${
        flags['sqlite-dir'] ? `${s.sameAsSqlite}/${queries.length}` : ''
      } | ${t.p50.toFixed(2)} / ${t.p95.toFixed(2)} | ${(s.cpu / queries.length).toFixed(2)} | ${load()} |`,
    );
    log(lines.at(-1) as string);
  }
  if (flags['sqlite-dir']) lines.push(`| SQLite | ${who} | ${(sqliteRecall / queries.length).toFixed(3)} | | | | | |`);
}
console.log(
  `\n| store | principal | recall@${k} | exact answers | same as SQLite | p50 / p95 ms | client CPU ms/query | load avg |`,
);
console.log('|---|---|---:|---:|---:|---:|---:|---|');
for (const line of lines) console.log(line);
for (const side of sides) await side.store.close();
await sqlite.close();

/**
 * Before/after of the search pipeline on one existing store, in one process, interleaved: this checkout and another
 * (`--compare`, a checkout with a `node_modules` link beside its `src/`) each open the store and answer the same
 * queries, the side that goes first alternating per query, so load from other work touches both alike. Rows: the
 * keyword channel (member, admin), dedupe and the offline rerank on each side's own inputs, hybrid without and with
 * rerank, and a fresh store's first full hybrid search (open, check the embedder, search: the vector index loaded
 * from the snapshot), each side timed alternately.
 *
 *   node --expose-gc --import tsx bench/retrieval/pipeline-compare.ts --store <dir with bench.db> --compare <checkout>
 *        [--queries 100] [--warmup 20] [--seed 42] [--cold 5]
 *
 * The store is one `npm run bench:retrieval -- --store-dir <dir>` built (`<dir>/size-<n>`), with the same seed.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateQueries, SyntheticCorpus, type BenchQuery } from './corpus.ts';
import { collectGarbage, summarize } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    store: { type: 'string' },
    compare: { type: 'string' },
    queries: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    cold: { type: 'string', default: '5' },
  },
  strict: true,
});
if (!flags.store || !flags.compare) throw new Error('usage: --store <dir with bench.db> --compare <checkout>');

const MEMBER = { id: 'bench-user', groups: ['engineering', 'support'], roles: ['member'] };
const ADMIN = { id: 'bench-admin', groups: [], roles: ['admin'] };
const FULL_HYBRID = { reranker: 'offline', retrieval: { channels: ['bm25', 'vector'] } };

// biome-ignore lint/suspicious/noExplicitAny: two checkouts' modules, typed by neither
type Any = any;
interface Side {
  name: string;
  src: string;
  evident: Any;
  dedupe: Any;
  fuse: Any;
  searchText: Any;
  config: Any;
}

const dir = resolve(flags.store);
const db = join(dir, 'bench.db');
const here = resolve(import.meta.dirname, '../../src');

async function openSide(name: string, src: string): Promise<Side> {
  const { createEvident } = await import(join(src, 'evident.ts'));
  const { loadConfig } = await import(join(src, 'config/index.ts'));
  const config = (extra: object) => loadConfig({ env: {}, cwd: dir, flags: { ...extra, db } });
  return {
    name,
    src,
    evident: await createEvident(config(FULL_HYBRID)),
    dedupe: await import(join(src, 'retrieval/dedupe.ts')),
    fuse: await import(join(src, 'retrieval/fuse.ts')),
    searchText: await import(join(src, 'retrieval/search-text.ts')),
    config,
  };
}

const sides = [
  await openSide('after (this checkout)', here),
  await openSide('before (--compare)', resolve(flags.compare, 'src')),
];
const record = JSON.parse(readFileSync(join(dir, 'ingest.json'), 'utf8')) as { documents: number; seed: number };
const seed = Number(flags.seed);
const corpus = new SyntheticCorpus({ seed });
const queries = generateQueries(corpus, record.documents, Number(flags.queries), seed + 1);
const warm = generateQueries(corpus, record.documents, Number(flags.warmup), seed + 2);

/** Each side's stage inputs for a query, computed untimed with that side's own code. */
async function inputsOf(side: Side, query: BenchQuery) {
  const { store, config } = side.evident;
  const { channelDepth, rerankDepth, topK, rrfK } = config.retrieval;
  const trace = await side.evident.search.search(query.text, MEMBER, { rerank: false });
  const bm25 = trace.channels.bm25 ?? [];
  const vector = trace.channels.vector ?? [];
  const fused = side.fuse.reciprocalRankFusion({ bm25, vector }, { k: rrfK });
  const pool = fused.slice(0, Math.max(rerankDepth, topK) * 2);
  const chunks = new Map<string, Any>(
    // With the stored analysed forms where the side's store reads them (a checkout without them ignores the flag).
    (
      await store.getChunks(
        pool.map((c: Any) => c.chunkId),
        MEMBER,
        { analysed: true },
      )
    ).map((c: Any) => [c.id, c]),
  );
  const { kept } = side.dedupe.dedupeCandidates(pool, (id: string) => chunks.get(id)?.text);
  const rerankInput = kept.slice(0, rerankDepth).map((c: Any) => {
    const chunk = chunks.get(c.chunkId);
    return {
      id: c.chunkId,
      text: side.searchText.chunkSearchText(chunk),
      retrievalScore: c.score,
      ...(chunk.analysed ? { analysed: chunk.analysed } : {}),
    };
  });
  return { terms: trace.terms as string[], pool, chunks, rerankInput, channelDepth };
}

type Row = { name: string; run: (side: Side, query: BenchQuery, input: Any) => Promise<unknown> | unknown };
const rows: Row[] = [
  {
    name: 'keyword channel (BM25), member',
    run: (s, _q, i) => s.evident.store.keywordSearch(i.terms, MEMBER, i.channelDepth),
  },
  {
    name: 'keyword channel (BM25), admin',
    run: (s, _q, i) => s.evident.store.keywordSearch(i.terms, ADMIN, i.channelDepth),
  },
  {
    name: 'dedupe (100 candidates, no limit)',
    run: (s, _q, i) =>
      s.dedupe.dedupeCandidates(i.pool, (id: string) => i.chunks.get(id)?.text, {
        formOf: (id: string) => i.chunks.get(id)?.analysed,
      }),
  },
  { name: 'rerank (offline), 50 candidates', run: (s, q, i) => s.evident.reranker.rerank(q.text, i.rerankInput) },
  {
    name: 'hybrid: bm25 + vector, no rerank',
    run: (s, q) => s.evident.search.search(q.text, MEMBER, { rerank: false }),
  },
  { name: 'hybrid: bm25 + vector + offline rerank', run: (s, q) => s.evident.search.search(q.text, MEMBER) },
  { name: 'hybrid + rerank, admin', run: (s, q) => s.evident.search.search(q.text, ADMIN) },
];

const loadBefore = loadavg()[0] ?? 0;
const started = performance.now();
const inputs = new Map<Side, Any[]>();
const warmInputs = new Map<Side, Any[]>();
for (const side of sides) {
  const of = async (list: BenchQuery[]) => {
    const out: Any[] = [];
    for (const q of list) out.push(await inputsOf(side, q));
    return out;
  };
  inputs.set(side, await of(queries));
  warmInputs.set(side, await of(warm));
}
const samples = new Map<string, number[]>();
/** Mean CPU ms per call (the process's, helper threads included): less swayed by other work than wall time. */
const cpuMs = new Map<string, number>();
for (const row of rows) {
  for (const side of sides) for (const [i, q] of warm.entries()) await row.run(side, q, warmInputs.get(side)?.[i]);
  collectGarbage();
  for (const [i, q] of queries.entries()) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const input = inputs.get(side)?.[i];
      const cpu = process.cpuUsage();
      const t = performance.now();
      const out = row.run(side, q, input);
      if (out instanceof Promise) await out;
      const key = `${row.name}\t${side.name}`;
      samples.set(key, [...(samples.get(key) ?? []), performance.now() - t]);
      const used = process.cpuUsage(cpu);
      cpuMs.set(key, (cpuMs.get(key) ?? 0) + (used.user + used.system) / 1000 / queries.length);
    }
  }
}
for (const side of sides) await side.evident.close();

// A fresh store's first full hybrid search, sides alternating.
for (let run = 0; run < Number(flags.cold); run++) {
  const order = run % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order) {
    const { createEvident } = await import(join(side.src, 'evident.ts'));
    collectGarbage();
    const t = performance.now();
    const fresh = await createEvident(side.config(FULL_HYBRID));
    await fresh.assertEmbedderMatches();
    await fresh.search.search((queries[run % queries.length] as BenchQuery).text, MEMBER);
    const key = `first full hybrid search of a fresh store\t${side.name}`;
    samples.set(key, [...(samples.get(key) ?? []), performance.now() - t]);
    await fresh.close();
  }
}

const lines = [
  `| row | ${sides.map((s) => `${s.name} p50 / p95 ms (CPU mean)`).join(' | ')} |`,
  `| --- | ${sides.map(() => '---:').join(' | ')} |`,
];
for (const name of [...rows.map((r) => r.name), 'first full hybrid search of a fresh store']) {
  const cells = sides.map((side) => {
    const stats = summarize(samples.get(`${name}\t${side.name}`) ?? []);
    const cpu = cpuMs.get(`${name}\t${side.name}`);
    return `${stats.p50.toFixed(2)} / ${stats.p95.toFixed(2)}${cpu === undefined ? '' : ` (CPU ${cpu.toFixed(2)})`}`;
  });
  lines.push(`| ${name} | ${cells.join(' | ')} |`);
}
process.stdout.write(
  `${lines.join('\n')}\n\n${queries.length} queries after ${warm.length} warm-up, sides alternating per query; ` +
    `load average ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}, ${((performance.now() - started) / 1000).toFixed(0)} s.\n`,
);

/**
 * Evident's keyword channel and HybridSearch against a plain SQLite FTS5 porter table, on a BEIR folder (SciFact by
 * default), in one process: the same queries through the same timing loop, interleaved (the engine order rotates per
 * query), so load drift touches every row alike. See bench/README.md.
 *
 *   npm run bench:keyword -- [--dataset ../shared/datasets/scifact] [--split train] [--queries 300] [--warmup 20]
 *                            [--compare <folder with another checkout's src/>] [--json out.json]
 *
 * --compare loads a second copy of Evident (e.g. `git archive <commit> src | tar -x -C /tmp/before`, with
 * package.json and a node_modules link beside it), builds its own store from the same corpus, and times its rows in
 * the same loop: before/after figures from one run.
 *
 *   npm run bench:keyword -- --store /tmp/store/size-100000 [--queries 100] [--warmup 20]
 *
 * --store times the keyword channel on a synthetic store `npm run bench:retrieval -- --store-dir` built (it is
 * migrated first), for a member and an admin, interleaved per query with the FTS5 ranking the channel used before its
 * own postings (`rankKeywords`, MaxScore over chunk_fts, still in this checkout for prefix terms) on the same file,
 * and checks that both return the same chunks in the same order (keyword-store-bench.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readBeirDataset } from '../../src/eval/beir/beir-dataset.ts';
import { buildFts5Baseline } from '../../src/eval/beir/fts5-baseline.ts';
import { mean, ndcgAt, percentile } from '../../src/eval/metrics/ranking-metrics.ts';
import type { Principal } from '../../src/domain/index.ts';
import type { Evident } from '../../src/evident.ts';
import type { SearchOptions, SearchTrace } from '../../src/retrieval/hybrid-search.ts';
import { describeEnvironment } from '../environment.ts';
import { keywordStoreBench } from './keyword-store-bench.ts';

const here = resolve(fileURLToPath(import.meta.url), '../../..');
const { values: flags } = parseArgs({
  options: {
    dataset: { type: 'string', default: resolve(here, '../shared/datasets/scifact') },
    split: { type: 'string', default: 'train' },
    queries: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    compare: { type: 'string' },
    json: { type: 'string' },
    store: { type: 'string' },
  },
  strict: true,
});

const count = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return parsed;
};
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Every BEIR document is public; a member with no groups still gets the ACL filter inside every query. */
const READER: Principal = { id: 'bench-reader', groups: [], roles: ['member'] };
const DEPTH = 100;
const docOf = (chunkId: string): string => chunkId.slice(0, chunkId.lastIndexOf('#'));

interface Sample {
  ms: number;
  cpuMs: number;
  /** HybridSearch rows: total minus the channels' own timings. */
  overheadMs?: number;
  ranked: string[];
}
interface Engine {
  name: string;
  run(query: string): Promise<Omit<Sample, 'ms' | 'cpuMs'>>;
}

interface Checkout {
  label: string;
  evident: Evident;
  analyze: (text: string) => string[];
  folder: string;
}

async function openCheckout(
  root: string,
  label: string,
  corpus: Awaited<ReturnType<typeof readBeirDataset>>['corpus'],
): Promise<Checkout> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;
  const { createEvident } = await load<typeof import('../../src/evident.ts')>('src/evident.ts');
  const { loadConfig } = await load<typeof import('../../src/config/index.ts')>('src/config/index.ts');
  const { analyzeQueryOccurrences } = await load<typeof import('../../src/text/analyzer.ts')>('src/text/analyzer.ts');
  const folder = mkdtempSync(join(tmpdir(), 'evident-keyword-bench-'));
  const evident = await createEvident(loadConfig({ flags: { db: join(folder, 'bench.db') }, env: {}, cwd: folder }));
  const started = performance.now();
  await evident.ingestor.ingestRecords(
    corpus.map((doc) => ({ docId: doc.id, title: doc.title, text: doc.text, source: `beir:${doc.id}` })),
  );
  log(
    `${label.replace(/: $/, '') || 'this checkout'}: ingested ${corpus.length} documents (${(await evident.store.stats()).chunks} chunks) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { label, evident, analyze: analyzeQueryOccurrences, folder };
}

function checkoutEngines({ label, evident, analyze }: Checkout): Engine[] {
  const hybrid = (name: string, options: SearchOptions): Engine => ({
    name: `${label}HybridSearch.search, ${name}`,
    async run(query) {
      const trace: SearchTrace = await evident.search.search(query, READER, options);
      const channels = (trace.timingsMs.bm25 ?? 0) + (trace.timingsMs.vector ?? 0);
      return {
        ranked: trace.results.map((result) => result.chunk.docId),
        overheadMs: (trace.timingsMs.total ?? 0) - channels,
      };
    },
  });
  return [
    {
      name: `${label}keyword channel (analyzeQueryOccurrences + store.keywordSearch, depth ${DEPTH})`,
      async run(query) {
        const hits = await evident.store.keywordSearch(analyze(query), READER, DEPTH);
        return { ranked: hits.map((hit) => docOf(hit.chunkId)) };
      },
    },
    hybrid(`bm25 only, topK ${DEPTH}`, { channels: ['bm25'], rerank: false, topK: DEPTH, channelDepth: DEPTH }),
    hybrid(`bm25 + vector (offline embedder), topK ${DEPTH}`, {
      channels: ['bm25', 'vector'],
      rerank: false,
      topK: DEPTH,
      channelDepth: DEPTH,
    }),
    hybrid('default options (what `evident search` runs: topK 5)', {}),
  ];
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const dataset = await readBeirDataset(resolve(flags.dataset), flags.split);
  const queries = dataset.queries.slice(0, count('queries', flags.queries) || undefined);
  const warmup = dataset.queries.slice(0, count('warmup', flags.warmup));

  const fts5 = buildFts5Baseline(dataset.corpus, 'fts5');
  log(`FTS5 porter built in ${(fts5.buildMs / 1000).toFixed(2)} s`);
  const checkouts = [await openCheckout(here, flags.compare ? 'after: ' : '', dataset.corpus)];
  if (flags.compare) checkouts.unshift(await openCheckout(resolve(flags.compare), 'before: ', dataset.corpus));

  const engines: Engine[] = [
    {
      name: 'SQLite FTS5 bm25(), porter unicode61 (one row per document)',
      run: async (query) => ({ ranked: fts5.search(query, DEPTH) }),
    },
    ...checkouts.flatMap(checkoutEngines),
  ];
  const samples = new Map<string, Sample[]>(engines.map((engine) => [engine.name, []]));

  for (const query of warmup) for (const engine of engines) await engine.run(query.text);
  const loopLoadBefore = loadavg()[0] ?? 0;
  for (const [index, query] of queries.entries()) {
    for (let i = 0; i < engines.length; i++) {
      const engine = engines[(index + i) % engines.length] as Engine;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await engine.run(query.text);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      samples.get(engine.name)?.push({ ...result, ms, cpuMs: (used.user + used.system) / 1000 });
    }
  }
  const loopLoadAfter = loadavg()[0] ?? 0;

  const rows = engines.map((engine) => {
    const list = samples.get(engine.name) ?? [];
    const ndcg = list.map((sample, i) => {
      const ranked = [...new Set(sample.ranked)];
      return ndcgAt(ranked, dataset.qrels.get(queries[i]?.id ?? '') ?? new Map(), 10);
    });
    const overhead = list.flatMap((sample) => (sample.overheadMs === undefined ? [] : [sample.overheadMs]));
    return {
      engine: engine.name,
      ndcg10: mean(ndcg),
      p50: percentile(
        list.map((s) => s.ms),
        50,
      ),
      p95: percentile(
        list.map((s) => s.ms),
        95,
      ),
      cpuMean: mean(list.map((s) => s.cpuMs)),
      ...(overhead.length ? { overheadP50: percentile(overhead, 50), overheadP95: percentile(overhead, 95) } : {}),
    };
  });

  const env = describeEnvironment('bench/retrieval/keyword-vs-fts5.ts', benchStarted, loadBefore);
  const f = (value: number | undefined, digits = 2): string => (value === undefined ? '—' : value.toFixed(digits));
  const lines = [
    `# Keyword channel vs FTS5 porter — ${dataset.corpus.length.toLocaleString('en')} documents, ${queries.length} queries (${flags.split})`,
    '',
    `${env.date}, node ${env.node}, ${env.cpus} × ${env.nproc}, commit ${env.commit}. Load average (1 min): ${f(loadBefore)} at start, ` +
      `${f(loopLoadBefore)} → ${f(loopLoadAfter)} during the timing loop. ${queries.length} queries × ${engines.length} rows, ` +
      `the row order rotating per query, after ${warmup.length} warm-up queries; p50/p95 nearest-rank, CPU = process.cpuUsage() per call.`,
    '',
    '| row | nDCG@10 | p50 ms | p95 ms | CPU ms (mean) | overhead p50 ms | overhead p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.engine} | ${f(row.ndcg10, 4)} | ${f(row.p50)} | ${f(row.p95)} | ${f(row.cpuMean)} | ${f(row.overheadP50)} | ${f(row.overheadP95)} |`,
    ),
    '',
    "Overhead = `timingsMs.total` − the channels' own timings (`bm25` includes query analysis; `vector` includes embedding the query). " +
      'The default-options row returns 5 results, so its nDCG@10 is not comparable with the others.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (flags.json)
    writeFileSync(
      flags.json,
      JSON.stringify(
        { environment: env, loop: { loadBefore: loopLoadBefore, loadAfter: loopLoadAfter }, rows },
        null,
        2,
      ),
    );

  fts5.close();
  for (const checkout of checkouts) {
    await checkout.evident.close();
    rmSync(checkout.folder, { recursive: true, force: true });
  }
}

if (flags.store)
  await keywordStoreBench({
    dir: resolve(flags.store),
    queries: count('queries', flags.queries),
    warmup: count('warmup', flags.warmup),
  });
else await main();

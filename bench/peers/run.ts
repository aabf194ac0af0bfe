/**
 * Evident beside its peers in one run, on a BEIR folder (SciFact by default): each engine builds its index from the
 * same documents (build time, wall and CPU, every thread), then the same queries run through keyword, vector and
 * hybrid search on every engine that has them, in one loop whose engine order rotates per query, so load drift
 * touches every row alike. nDCG@10 and Recall@100 count documents. Every vector row ranks the vectors of Evident's
 * configured embedder (offline by default: feature hashing, lexical, not semantic), given to the peers as is.
 *
 *   npm --prefix bench/peers ci                       # the peers (LanceDB, MiniSearch), once
 *   node --import tsx bench/peers/run.ts [--dataset ../shared/datasets/scifact] [--split train] [--queries 300, 0: all]
 *                                        [--k 100] [--warmup 20] [--json out.json]
 *
 * Peers: SQLite FTS5 porter + sqlite-vec (always, they are Evident's own dependencies), LanceDB and MiniSearch when
 * installed under bench/peers/ (see peer-engines.ts). The table is made as ../shared/benchmarks/peers-*.md made
 * theirs: one caller, queries one at a time after a warm-up, `performance.now()` around each call, p50/p95 nearest-rank.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readBeirDataset } from '../../src/eval/beir/beir-dataset.ts';
import { buildFts5Baseline } from '../../src/eval/beir/fts5-baseline.ts';
import { mean, ndcgAt, percentile, recallAt } from '../../src/eval/metrics/ranking-metrics.ts';
import { describeEnvironment } from '../environment.ts';
import { evidentPeers } from './evident-engine.ts';
import { lancePeer, miniSearchPeer, sqlitePeer, timed, type PeerEngine } from './peer-engines.ts';

const here = resolve(fileURLToPath(import.meta.url), '../../..');
const { values: flags } = parseArgs({
  options: {
    dataset: { type: 'string', default: resolve(here, '../shared/datasets/scifact') },
    split: { type: 'string', default: 'train' },
    queries: { type: 'string', default: '300' },
    k: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    json: { type: 'string' },
  },
  strict: true,
});
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const whole = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative integer: ${value}`);
  return parsed;
};

type Mode = 'keyword' | 'vector' | 'hybrid';
interface Task {
  engine: PeerEngine;
  mode: Mode;
  run(query: string, vector: Float32Array): Promise<string[]>;
}

function tasksOf(engine: PeerEngine, k: number): Task[] {
  const { keyword, vector, hybrid } = engine;
  return [
    ...(keyword ? [{ engine, mode: 'keyword' as const, run: (q: string) => keyword(q, k) }] : []),
    ...(vector ? [{ engine, mode: 'vector' as const, run: (_q: string, v: Float32Array) => vector(v, k) }] : []),
    ...(hybrid ? [{ engine, mode: 'hybrid' as const, run: (q: string, v: Float32Array) => hybrid(q, v, k) }] : []),
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const k = whole('k', flags.k) || 100;
  const dataset = await readBeirDataset(resolve(flags.dataset), flags.split);
  const docs = dataset.corpus.map((doc) => ({ id: doc.id, title: doc.title, text: doc.text }));
  const queries = dataset.queries.slice(0, whole('queries', flags.queries) || undefined);
  const warmup = dataset.queries.slice(0, whole('warmup', flags.warmup));
  const loads: string[] = [];
  const noteLoad = (what: string) => loads.push(`${what} ${(loadavg()[0] ?? 0).toFixed(1)}`);

  noteLoad('before the builds');
  const evident = await evidentPeers(docs);
  log(`Evident built in ${(evident.store.buildMs / 1000).toFixed(2)} s`);
  const vectors = await timed(() => evident.embedDocuments(docs));
  log(`document vectors for the peers: ${(vectors.ms / 1000).toFixed(2)} s (not counted in their builds)`);
  const fts5Alone = await timed(() => buildFts5Baseline(docs, 'fts5'));
  fts5Alone.value.close();
  const sqlite = await sqlitePeer(docs, vectors.value);
  log(`SQLite FTS5 + vec0 built in ${(sqlite.buildMs / 1000).toFixed(2)} s`);
  const lance = await lancePeer(docs, vectors.value);
  if (lance) log(`LanceDB built in ${(lance.buildMs / 1000).toFixed(2)} s`);
  const mini = await miniSearchPeer(docs);
  if (mini) log(`MiniSearch built in ${(mini.buildMs / 1000).toFixed(2)} s`);
  noteLoad('after the builds');
  const engines = [sqlite, ...(lance ? [lance] : []), ...(mini ? [mini] : []), evident.store, evident.pipeline];
  const tasks = engines.flatMap((engine) => tasksOf(engine, k));

  const queryVectors = new Map<string, Float32Array>();
  for (const query of [...warmup, ...queries]) queryVectors.set(query.id, await evident.embedQuery(query.text));
  for (const query of warmup)
    for (const task of tasks) await task.run(query.text, queryVectors.get(query.id) as Float32Array);
  noteLoad('loop start');
  const samples = tasks.map(() => ({
    ms: [] as number[],
    cpuMs: [] as number[],
    ndcg: [] as number[],
    recall: [] as number[],
  }));
  for (const [index, query] of queries.entries()) {
    const vector = queryVectors.get(query.id) as Float32Array;
    const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
    for (let i = 0; i < tasks.length; i++) {
      const at = (index + i) % tasks.length;
      const task = tasks[at] as Task;
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const ranked = await task.run(query.text, vector);
      const ms = performance.now() - t0;
      const used = process.cpuUsage(cpu);
      const sample = samples[at] as (typeof samples)[number];
      sample.ms.push(ms);
      sample.cpuMs.push((used.user + used.system) / 1000);
      sample.ndcg.push(ndcgAt(ranked, judged, 10));
      sample.recall.push(recallAt(ranked, judged, 100));
    }
  }
  noteLoad('loop end');

  const rows = tasks.map((task, i) => {
    const s = samples[i] as (typeof samples)[number];
    return {
      engine: task.engine.name,
      mode: task.mode,
      ndcg10: mean(s.ndcg),
      recall100: mean(s.recall),
      p50: percentile(s.ms, 50),
      p95: percentile(s.ms, 95),
      cpuMean: mean(s.cpuMs),
    };
  });
  const builds = [
    { engine: 'SQLite FTS5 porter alone (in memory, one transaction)', ms: fts5Alone.ms, cpuMs: fts5Alone.cpuMs },
    ...[...new Map(engines.map((engine) => [engine.name.split(':')[0], engine])).values()].map((engine) => ({
      engine: engine.name.split(':')[0] as string,
      ms: engine.buildMs,
      cpuMs: engine.buildCpuMs,
    })),
  ];
  for (const engine of new Set(engines)) await engine.close();

  const env = describeEnvironment('bench/peers/run.ts', started, loadBefore);
  const f = (value: number, digits = 2) => value.toFixed(digits);
  const fts5 = builds[0]?.ms ?? Number.NaN;
  const lines = [
    `# Evident beside its peers — ${dataset.corpus.length.toLocaleString('en')} documents, ${queries.length} queries (${flags.split}), k = ${k}`,
    '',
    `${env.date}, node ${env.node}, ${env.cpus} × ${env.nproc}, ${env.memoryGiB} GiB, commit ${env.commit}; ${env.totalSeconds.toFixed(0)} s.`,
    `Load average (1 min): ${loads.join(', ')}. Command: \`${env.command}\`.`,
    `Vectors: ${evident.evident.embedder.id} for every engine (the peers get Evident's vectors of each document's title and text, made in ${f(vectors.ms / 1000)} s outside their builds).`,
    '',
    '## Build',
    '',
    '| engine | build s | CPU s (all threads) | × FTS5 alone (wall) |',
    '|---|---:|---:|---:|',
    ...builds.map((b) => `| ${b.engine} | ${f(b.ms / 1000)} | ${f(b.cpuMs / 1000)} | ${f(b.ms / fts5, 1)} |`),
    '',
    `The SQLite row builds FTS5 and vec0; the Evident row is the whole ingestion (chunking, analysis, embedding, extras, FTS5, vectors, in transactions on a file).`,
    '',
    '## Search',
    '',
    `${queries.length} queries × ${tasks.length} rows, the row order rotating per query, after ${warmup.length} warm-up queries; one caller; p50/p95 nearest-rank; CPU = process.cpuUsage() per call.`,
    '',
    '| engine | mode | nDCG@10 | Recall@100 | p50 ms | p95 ms | CPU ms (mean) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.mode} | ${f(r.ndcg10, 4)} | ${f(r.recall100, 3)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.cpuMean)} |`,
    ),
  ];
  console.log(lines.join('\n'));
  if (flags.json) writeFileSync(flags.json, JSON.stringify({ env, loads, builds, rows }, null, 2));
}

await main();

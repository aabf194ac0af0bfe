/**
 * The SQLite vector channel alone, at a size where ingesting real text would take long: a store of N chunks with
 * clustered random unit vectors (written straight through `putDocument`), then
 *   - the first vector query of the process that wrote them (decodes vec0, and writes the snapshot if there is one),
 *   - the first vector query of a new process on the same file (`--child` re-runs this script for it),
 *   - p50/p95 of the channel over --queries queries at limit 100 (what HybridSearch asks) for an unfiltered reader
 *     and for readers who see 10% and 1% of the chunks, with the CPU time of the calling thread per query (the
 *     scan's helper thread excluded: Linux only, from /proc), and
 *   - recall@10 of the channel (limits 10 and 100) against an exact float64 scan of the vectors written, per reader
 *     (a hit counts if its exact score reaches the exact 10th score: ties at the boundary are not misses).
 *
 *   npx tsx bench/retrieval/vector-channel.ts [--chunks 100000] [--dimension 512] [--queries 100] [--keep]
 *                                             [--store path]   (reuse a store this script wrote with the same sizes)
 *                                             [--recall-queries 100]   (fewer for 1M rows: each costs an exact scan)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Principal } from '../../src/domain/index.ts';
import type { DocumentWrite } from '../../src/store/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { createRng } from './corpus.ts';
import { summarize } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    dimension: { type: 'string', default: '512' },
    queries: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    store: { type: 'string' },
    'recall-queries': { type: 'string', default: '100' },
    child: { type: 'string' },
  },
  strict: true,
});
const chunks = Number(flags.chunks);
const dimension = Number(flags.dimension);
const CHUNKS_PER_DOC = 50;
const CLUSTERS = 256;
const READERS: { share: string; principal: Principal }[] = [
  { share: '100%', principal: { id: 'reader-all', groups: ['all'], roles: ['member'] } },
  { share: '10%', principal: { id: 'reader-tenth', groups: ['tenth'], roles: ['member'] } },
  { share: '1%', principal: { id: 'reader-hundredth', groups: ['hundredth'], roles: ['member'] } },
];

/** Unit-variance-ish vectors around CLUSTERS centres: neighbours exist, as with real embeddings. */
function vectors(seed: number) {
  const next = createRng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: dimension }, gauss));
  return () => {
    const centre = centres[Math.floor(next() * CLUSTERS)] as Float32Array;
    return Float32Array.from(centre, (value) => value + gauss() * 0.8);
  };
}

/** CPU time of the calling thread in ms (schedstat), or NaN where /proc does not have it. */
function threadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

const readerSees = (doc: number): boolean[] => [true, doc % 10 === 0, doc % 100 === 0];

/** Exact float64 cosine of `query` with every row of `all` (rows of `dimension`). */
function exactScores(all: Float32Array, query: Float32Array): Float64Array {
  const rows = all.length / dimension;
  let qNorm = 0;
  for (let d = 0; d < dimension; d++) qNorm += (query[d] as number) ** 2;
  const scores = new Float64Array(rows);
  for (let row = 0; row < rows; row++) {
    let dot = 0;
    let norm = 0;
    for (let d = 0; d < dimension; d++) {
      const value = all[row * dimension + d] as number;
      dot += value * (query[d] as number);
      norm += value * value;
    }
    scores[row] = dot / Math.sqrt(norm * qNorm);
  }
  return scores;
}

/** Recall@10 of `found` (chunk ids) for `reader`, from the exact scores of every row. */
function recallAt10(scores: Float64Array, found: string[], reader: number): number {
  const visible = scores.filter((_, row) => readerSees(Math.floor(row / CHUNKS_PER_DOC))[reader]);
  const tenth = visible.sort().reverse()[9] as number;
  const rowOf = (id: string) => {
    const [doc, ordinal] = id.replace('doc-', '').split('#').map(Number) as [number, number];
    return doc * CHUNKS_PER_DOC + ordinal;
  };
  return found.slice(0, 10).filter((id) => (scores[rowOf(id)] as number) >= tenth - 1e-6).length / 10;
}

async function firstQuery(path: string): Promise<number> {
  const store = await openSqliteStore(path);
  const query = vectors(99)();
  const started = performance.now();
  await store.vectorSearch(query, READERS[0]?.principal as Principal, 100);
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

async function main(): Promise<void> {
  if (flags.child) {
    process.stdout.write(String(await firstQuery(flags.child)));
    return;
  }
  const workDir = flags.store ? undefined : mkdtempSync(join(tmpdir(), 'evident-vector-'));
  const path = flags.store ?? join(workDir as string, 'vectors.db');
  const reuse = flags.store !== undefined && existsSync(flags.store);
  console.error(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const store = await openSqliteStore(path);
  const next = vectors(1);
  const all = new Float32Array(chunks * dimension);
  const started = performance.now();
  for (let doc = 0; doc * CHUNKS_PER_DOC < chunks; doc++) {
    const docId = `doc-${doc}`;
    const count = Math.min(CHUNKS_PER_DOC, chunks - doc * CHUNKS_PER_DOC);
    const acl = [
      'group:all',
      ...(doc % 10 === 0 ? ['group:tenth'] : []),
      ...(doc % 100 === 0 ? ['group:hundredth'] : []),
    ];
    const write: DocumentWrite = {
      document: { docId, source: docId, title: docId, type: 'text', contentHash: docId, bytes: 1, acl, tags: [] },
      chunks: Array.from({ length: count }, (_, ordinal) => ({
        id: `${docId}#${ordinal}`,
        docId,
        ordinal,
        text: docId,
        headingPath: [],
        startOffset: 0,
        endOffset: 1,
      })),
      keywordText: Array.from({ length: count }, () => 'chunk'),
      vectors: Array.from({ length: count }, (_, ordinal) => {
        const vector = next();
        all.set(vector, (doc * CHUNKS_PER_DOC + ordinal) * dimension);
        return vector;
      }),
      embedder: { id: 'bench-random', dimension },
      chapters: [],
      tables: [],
    };
    if (!reuse) await store.putDocument(write);
  }
  console.error(
    `${reuse ? 'regenerated' : 'wrote'} ${chunks} vectors in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const queries = Array.from({ length: Number(flags.queries) + 10 }, vectors(7));
  const firstStarted = performance.now();
  await store.vectorSearch(queries[0] as Float32Array, READERS[0]?.principal as Principal, 100);
  const firstInWriter = performance.now() - firstStarted;
  const rows: string[] = [];
  const recallRows: string[] = [];
  // Exact scores once per query (a float64 scan of every row): the recall queries are the first measured ones.
  const recallQueries = queries.slice(10, 10 + Number(flags['recall-queries']));
  const exact = recallQueries.map((query) => exactScores(all, query));
  for (const [reader, { share, principal }] of READERS.entries()) {
    for (const warm of queries.slice(0, 10)) await store.vectorSearch(warm, principal, 100);
    const samples: number[] = [];
    let cpu = 0;
    for (const query of queries.slice(10)) {
      const cpuBefore = threadCpuMs();
      const t = performance.now();
      await store.vectorSearch(query, principal, 100);
      samples.push(performance.now() - t);
      cpu += threadCpuMs() - cpuBefore;
    }
    const s = summarize(samples);
    rows.push(
      `| vector channel, reader sees ${share} (limit 100) | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} | ${(cpu / samples.length).toFixed(2)} |`,
    );
    const recalls = [];
    for (const limit of [10, 100]) {
      let sum = 0;
      for (const [i, query] of recallQueries.entries()) {
        const found = (await store.vectorSearch(query, principal, limit)).map((hit) => hit.chunkId);
        sum += recallAt10(exact[i] as Float64Array, found, reader);
      }
      recalls.push((sum / recallQueries.length).toFixed(3));
    }
    recallRows.push(`| reader sees ${share} | ${recalls.join(' | ')} |`);
  }
  await store.close();
  const fresh = Array.from({ length: 3 }, () =>
    Number(
      execFileSync(process.execPath, [...process.execArgv, process.argv[1] as string, '--child', path], {
        encoding: 'utf8',
      }),
    ),
  );
  console.log(
    `${chunks} × ${dimension} vectors; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| measure | p50 ms | p95 ms | calling thread CPU ms per query |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log(
    `| first vector query, process that ${reuse ? 'opened' : 'wrote'} the store | ${firstInWriter.toFixed(0)} | | |`,
  );
  console.log(`| first vector query, new process (3 runs) | ${fresh.map((ms) => ms.toFixed(0)).join(' / ')} | | |`);
  console.log('');
  console.log(`| recall@10 against exact float64 search (${recallQueries.length} queries) | limit 10 | limit 100 |`);
  console.log('|---|---:|---:|');
  for (const row of recallRows) console.log(row);
  if (flags.keep || flags.store) console.error(`kept ${path}`);
  else if (workDir) rmSync(workDir, { recursive: true, force: true });
}

await main();

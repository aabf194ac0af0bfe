/**
 * Recall@10 of the vector channel against exact search, for principals who may read 100%, 10% and 1% of the chunks,
 * on the retrieval benchmark's synthetic corpus and on SciFact, both embedded with the configured (offline) embedder
 * through the real ingestion path. Also the channel's p50/p95 per principal.
 *
 *   npx tsx bench/retrieval/filtered-recall.ts [--chunks 100000] [--queries 100] [--limits 10,100]
 *                                              [--corpora synthetic,scifact] [--scifact ../shared/datasets/scifact]
 *                                              [--database-url postgres://…] [--keep]
 *
 * Exact search is a float32 scan of every stored vector (read back from the SQLite store's vec0 table) with the
 * principal's filter, so the figure measures what the store's own path loses (int8 candidates on SQLite, HNSW on
 * PostgreSQL). A hit counts if its exact score reaches the exact 10th score (ties at the boundary are not misses).
 * With --database-url the same document writes also go to a scratch PostgreSQL schema (bench/store/postgres-tee-load.ts:
 * replayed over several connections, the HNSW index built once at the end) and are measured there.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Principal } from '../../src/domain/index.ts';
import { createEvident, type Evident } from '../../src/evident.ts';
import type { TextRecord } from '../../src/ingest/ingestor.ts';
import { dropPostgresStore, withSchema } from '../../src/store/postgres/drop-store.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { createDotKernel } from '../../src/store/sqlite/vectors/dot-kernel.ts';
import { topK } from '../../src/store/sqlite/vectors/top-k.ts';
import { generateQueries, SyntheticCorpus } from './corpus.ts';
import { benchConfig } from './measure-size.ts';
import { summarize } from './stats.ts';
import { teeLoad } from '../store/postgres-tee-load.ts';

const { values: flags } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    limits: { type: 'string', default: '10,100' },
    corpora: { type: 'string', default: 'synthetic,scifact' },
    scifact: { type: 'string', default: join(import.meta.dirname, '../../../shared/datasets/scifact') },
    'database-url': { type: 'string' },
    keep: { type: 'boolean', default: false },
    seed: { type: 'string', default: '42' },
  },
  strict: true,
});

const RECALL_AT = 10;
/** Nested reader groups: every document is readable by `all`, one in ten also by `tenth`, one in a hundred by `hundredth`. */
const PRINCIPALS: { share: string; principal: Principal }[] = [
  { share: '100%', principal: { id: 'reader-all', groups: ['all'], roles: ['member'] } },
  { share: '10%', principal: { id: 'reader-tenth', groups: ['tenth'], roles: ['member'] } },
  { share: '1%', principal: { id: 'reader-hundredth', groups: ['hundredth'], roles: ['member'] } },
];
const aclFor = (index: number): string[] => [
  'group:all',
  ...(index % 10 === 0 ? ['group:tenth'] : []),
  ...(index % 100 === 0 ? ['group:hundredth'] : []),
];
/** Which principals may read the document at `index` (the PRINCIPALS order). */
const readersOf = (index: number): boolean[] => [true, index % 10 === 0, index % 100 === 0];

interface Corpus {
  name: string;
  records: TextRecord[];
  queries: string[];
}

function syntheticCorpus(chunks: number, queries: number, seed: number): Corpus {
  const corpus = new SyntheticCorpus({ seed });
  const records: TextRecord[] = [];
  // Documents average ~10 chunks; the ingestion below reports the exact count.
  for (let i = 0; records.length * 10 < chunks; i++) records.push({ ...corpus.document(i).record, acl: aclFor(i) });
  return {
    name: `synthetic (${chunks} chunks)`,
    records,
    queries: generateQueries(corpus, records.length, queries, seed + 1).map((q) => q.text),
  };
}

async function readJsonl<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for await (const line of createInterface({ input: createReadStream(path) }))
    if (line.trim()) out.push(JSON.parse(line) as T);
  return out;
}

async function scifactCorpus(dir: string, queries: number): Promise<Corpus> {
  const docs = await readJsonl<{ _id: string; title: string; text: string }>(join(dir, 'corpus.jsonl'));
  const qs = await readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl'));
  return {
    name: `SciFact (${docs.length} abstracts)`,
    records: docs.map((doc, i) => ({ docId: `scifact-${doc._id}`, title: doc.title, text: doc.text, acl: aclFor(i) })),
    queries: qs.slice(0, queries).map((q) => q.text),
  };
}

/** Every stored vector, normalised, in the float kernel's memory, with the readers of its document. */
function exactIndex(dbPath: string, records: TextRecord[]) {
  const db = new Database(dbPath, { readonly: true });
  sqliteVec.load(db);
  const docIndex = new Map(records.map((record, i) => [record.docId, i]));
  const rows = db
    .prepare(
      'SELECT c.id, d.doc_id, v.embedding FROM chunk_vectors v JOIN chunks c ON c.pk = v.rowid JOIN documents d ON d.pk = c.doc_pk',
    )
    .raw()
    .all() as [string, string, Buffer][];
  db.close();
  const dimension = (rows[0]?.[2].byteLength ?? 0) / 4;
  const stride = Math.ceil(dimension / 16) * 16;
  const kernel = createDotKernel();
  const matrix = stride * 4;
  const out = matrix + rows.length * stride * 4;
  kernel.reserve(out + rows.length * 4);
  const f32 = new Float32Array(kernel.buffer());
  const ids: string[] = [];
  const readers: boolean[][] = [];
  rows.forEach(([id, docId, blob], r) => {
    const vector = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
    const norm = Math.hypot(...vector) || 1;
    for (let d = 0; d < dimension; d++) f32[matrix / 4 + r * stride + d] = (vector[d] as number) / norm;
    ids.push(id);
    readers.push(readersOf(docIndex.get(docId) ?? -1));
  });
  /** Exact top-10 ids and the 10th score for each principal, for one query vector. */
  const search = (query: Float32Array): { ids: Set<string>; score: Map<string, number>; floor: number }[] => {
    const view = new Float32Array(kernel.buffer());
    const norm = Math.hypot(...query) || 1;
    view.fill(0, 0, stride);
    for (let d = 0; d < dimension; d++) view[d] = (query[d] as number) / norm;
    kernel.dots(0, matrix, rows.length, stride * 4, out);
    const scores = new Float32Array(kernel.buffer(), out, rows.length);
    return PRINCIPALS.map((_, p) => {
      const visible = Int32Array.from(readers.flatMap((r, i) => (r[p] ? [i] : [])));
      const visibleScores = Float32Array.from(visible, (i) => scores[i] as number);
      const best = topK(visibleScores, visible.length, RECALL_AT, (i) => visible[i] as number);
      const score = new Map<string, number>();
      visible.forEach((row, i) => score.set(ids[row] as string, visibleScores[i] as number));
      return {
        ids: new Set(best.map((i) => ids[visible[i] as number] as string)),
        score,
        floor: (visibleScores[best.at(-1) as number] as number) ?? -Infinity,
      };
    });
  };
  return {
    search,
    size: rows.length,
    share: PRINCIPALS.map((_, p) => readers.filter((r) => r[p]).length / rows.length),
  };
}

interface Row {
  corpus: string;
  backend: string;
  share: string;
  visibleChunks: number;
  limit: number;
  recall: number;
  p50: number;
  p95: number;
}

async function measure(
  services: Evident,
  backend: string,
  corpus: Corpus,
  exact: ReturnType<typeof exactIndex>,
  vectors: Float32Array[],
  limits: number[],
): Promise<Row[]> {
  const truth = vectors.map((vector) => exact.search(vector));
  const rows: Row[] = [];
  for (const [p, { share, principal }] of PRINCIPALS.entries()) {
    for (const limit of limits) {
      // Warm the index and this principal's visible-row list first.
      await services.store.vectorSearch(vectors[0] as Float32Array, principal, limit);
      let found = 0;
      let wanted = 0;
      const samples: number[] = [];
      for (const [q, vector] of vectors.entries()) {
        const started = performance.now();
        const hits = await services.store.vectorSearch(vector, principal, limit);
        samples.push(performance.now() - started);
        const expected = truth[q]?.[p] as { ids: Set<string>; score: Map<string, number>; floor: number };
        wanted += expected.ids.size;
        // Within float noise of the 10th exact score counts: a tie at the boundary is not a miss.
        found += hits
          .slice(0, RECALL_AT)
          .filter((hit) => (expected.score.get(hit.chunkId) ?? -Infinity) >= expected.floor - 1e-6).length;
      }
      const latency = summarize(samples);
      rows.push({
        corpus: corpus.name,
        backend,
        share,
        visibleChunks: Math.round((exact.share[p] as number) * exact.size),
        limit,
        recall: wanted ? found / wanted : 1,
        p50: latency.p50,
        p95: latency.p95,
      });
    }
  }
  return rows;
}

async function ingest(services: Evident, records: TextRecord[]): Promise<number> {
  let chunks = 0;
  for (let i = 0; i < records.length; i += 100) {
    const summary = await services.ingestor.ingestRecords(records.slice(i, i + 100));
    if (summary.failed > 0)
      throw new Error(`ingestion failed: ${summary.outcomes.find((o) => o.error)?.error?.message}`);
    chunks += summary.chunks;
  }
  return chunks;
}

async function main(): Promise<void> {
  const queries = Number(flags.queries);
  const limits = flags.limits.split(',').map(Number);
  const corpora: Corpus[] = [];
  for (const name of flags.corpora.split(',')) {
    if (name === 'synthetic') corpora.push(syntheticCorpus(Number(flags.chunks), queries, Number(flags.seed)));
    else if (name === 'scifact') corpora.push(await scifactCorpus(flags.scifact, queries));
    else throw new Error(`unknown corpus ${name}`);
  }
  const rows: Row[] = [];
  for (const corpus of corpora) {
    const workDir = mkdtempSync(join(tmpdir(), 'evident-recall-'));
    const dbPath = join(workDir, 'recall.db');
    try {
      const sqlite = await createEvident(benchConfig(workDir, dbPath));
      const url = flags['database-url'];
      const databaseUrl = url ? withSchema(url, `evident_recall_${process.pid}`) : undefined;
      const pgStore = databaseUrl ? await openPostgresStore(databaseUrl) : undefined;
      try {
        const started = performance.now();
        if (pgStore && databaseUrl) {
          // Both stores get the same writes in one pass; PostgreSQL builds its HNSW index once at the end.
          const loaded = await teeLoad(sqlite, pgStore, databaseUrl, corpus.records, {
            log: (line) => console.error(line),
          });
          console.error(
            `${corpus.name}: ${loaded.chunks} chunks loaded into SQLite and PostgreSQL in ${(loaded.loadMs / 1000).toFixed(1)} s (HNSW build ${(loaded.indexBuildMs / 1000).toFixed(1)} s)`,
          );
        } else {
          const chunks = await ingest(sqlite, corpus.records);
          console.error(
            `${corpus.name}: ${chunks} chunks ingested into SQLite in ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
        }
        const vectors: Float32Array[] = [];
        for (const text of corpus.queries)
          vectors.push((await sqlite.embedder.embed([text], 'query'))[0] as Float32Array);
        const exact = exactIndex(dbPath, corpus.records);
        rows.push(...(await measure(sqlite, 'sqlite', corpus, exact, vectors, limits)));
        if (pgStore && databaseUrl) {
          const pg = await createEvident(benchConfig(workDir, dbPath, { databaseUrl }), { store: pgStore });
          rows.push(...(await measure(pg, 'postgres', corpus, exact, vectors, limits)));
        }
      } finally {
        await sqlite.close();
        await pgStore?.close();
        if (databaseUrl && !flags.keep) await dropPostgresStore(databaseUrl);
      }
    } finally {
      if (flags.keep) console.error(`kept ${workDir}`);
      else rmSync(workDir, { recursive: true, force: true });
    }
  }
  console.log(`| corpus | backend | principal sees | visible chunks | limit | recall@${RECALL_AT} | p50 ms | p95 ms |`);
  console.log('|---|---|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.corpus} | ${row.backend} | ${row.share} | ${row.visibleChunks} | ${row.limit} | ${row.recall.toFixed(4)} | ${row.p50.toFixed(2)} | ${row.p95.toFixed(2)} |`,
    );
  }
}

await main();

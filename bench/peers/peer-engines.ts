/**
 * The peers of bench/peers/run.ts, each built from the same documents and the same document vectors (Evident's
 * offline embedder, so every vector row ranks the same vectors): SQLite FTS5 porter with sqlite-vec `vec0` beside it
 * (hybrid: reciprocal rank fusion in JS, k = 60), LanceDB (its FTS index, a flat vector scan, its native hybrid with
 * `RRFReranker`), MiniSearch (keyword only, BM25+, Porter stems). The last two load from bench/peers/node_modules
 * (`npm --prefix bench/peers ci`); a peer that is not installed is left out with a line saying so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { stemmer } from 'stemmer';
import { buildFts5Baseline } from '../../src/eval/beir/fts5-baseline.ts';

export interface PeerDocument {
  id: string;
  title: string;
  text: string;
}

/** One engine built from the corpus: what it can run, each returning doc ids best first. */
export interface PeerEngine {
  name: string;
  buildMs: number;
  /** CPU of the whole process while it built (every thread: native index builders use their own). */
  buildCpuMs: number;
  keyword?(query: string, k: number): Promise<string[]>;
  vector?(query: Float32Array, k: number): Promise<string[]>;
  hybrid?(query: string, vector: Float32Array, k: number): Promise<string[]>;
  close(): Promise<void>;
}

export const RRF_K = 60;

/** Wall and CPU milliseconds of `build`. */
export async function timed<T>(build: () => Promise<T> | T): Promise<{ value: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await build();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Reciprocal rank fusion of ranked id lists (k = 60), ties by id: the reference hybrid for peers without their own. */
export function rrf(lists: readonly (readonly string[])[], limit: number): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([id]) => id);
}

const body = (doc: PeerDocument) => [doc.title, doc.text].filter(Boolean).join('\n');
const vectorBlob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** SQLite FTS5 porter (src/eval/beir/fts5-baseline.ts, in memory) and a sqlite-vec `vec0` float table beside it. */
export async function sqlitePeer(docs: readonly PeerDocument[], vectors: readonly Float32Array[]): Promise<PeerEngine> {
  const dimension = (vectors[0] as Float32Array).length;
  const { value, ms, cpuMs } = await timed(() => {
    const fts5 = buildFts5Baseline(docs, 'fts5');
    const db = new Database(':memory:');
    sqliteVec.load(db);
    db.exec(`CREATE VIRTUAL TABLE vectors USING vec0(embedding float[${dimension}])`);
    const insert = db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)');
    db.transaction(() => vectors.forEach((vector, i) => insert.run(BigInt(i), vectorBlob(vector))))();
    return { fts5, db };
  });
  const { fts5, db } = value;
  const knn = db.prepare('SELECT rowid FROM vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance').pluck();
  const vectorIds = (query: Float32Array, k: number) =>
    (knn.all(vectorBlob(query), k) as number[]).map((row) => (docs[row] as PeerDocument).id);
  return {
    name: 'SQLite FTS5 (porter unicode61) + sqlite-vec vec0 float (L2)',
    buildMs: ms,
    buildCpuMs: cpuMs,
    keyword: async (query, k) => fts5.search(query, k),
    vector: async (query, k) => vectorIds(query, k),
    hybrid: async (query, vector, k) => rrf([fts5.search(query, k), vectorIds(vector, k)], k),
    close: async () => {
      fts5.close();
      db.close();
    },
  };
}

/** Loads a peer from bench/peers/node_modules, or says why not. */
async function optional<T>(name: string): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    process.stderr.write(
      `peer ${name} left out: not installed (npm --prefix bench/peers ci): ${(error as Error).message.split('\n')[0]}\n`,
    );
    return undefined;
  }
}

/** The words of a query as LanceDB's FTS parser takes them (no operators or quotes). */
const plainWords = (query: string) => (query.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/** What of LanceDB's API this bench calls (its types are not installed where the repo is typechecked). */
interface LanceQuery {
  select(columns: string[]): LanceQuery;
  limit(limit: number): LanceQuery;
  distanceType(type: 'dot'): LanceQuery;
  nearestTo(vector: number[]): LanceQuery;
  fullTextSearch(query: string): LanceQuery;
  rerank(reranker: unknown): LanceQuery;
  toArray(): Promise<{ id: string }[]>;
}
interface LanceTable {
  createIndex(column: string, options: { config: unknown }): Promise<void>;
  search(query: string, type: 'fts'): LanceQuery;
  vectorSearch(vector: number[]): LanceQuery;
  query(): LanceQuery;
  close(): void;
}
interface Lance {
  connect(uri: string): Promise<{ createTable(name: string, rows: Record<string, unknown>[]): Promise<LanceTable> }>;
  Index: { fts(): unknown };
  rerankers: { RRFReranker: { create(k: number): Promise<unknown> } };
}

/** LanceDB on a local folder: FTS index with its defaults, vectors scanned flat (no index) by dot product. */
export async function lancePeer(
  docs: readonly PeerDocument[],
  vectors: readonly Float32Array[],
): Promise<PeerEngine | undefined> {
  const lancedb = await optional<Lance>('@lancedb/lancedb');
  if (!lancedb) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'evident-peers-lance-'));
  const {
    value: table,
    ms,
    cpuMs,
  } = await timed(async () => {
    const db = await lancedb.connect(folder);
    const rows = docs.map((doc, i) => ({
      id: doc.id,
      text: body(doc),
      vector: Array.from(vectors[i] as Float32Array),
    }));
    const created = await db.createTable('docs', rows);
    await created.createIndex('text', { config: lancedb.Index.fts() });
    return created;
  });
  const reranker = await lancedb.rerankers.RRFReranker.create(RRF_K);
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
  return {
    name: 'LanceDB 0.31 (FTS index, defaults; flat vector scan, dot; native hybrid with RRFReranker k=60)',
    buildMs: ms,
    buildCpuMs: cpuMs,
    keyword: async (query, k) => {
      const words = plainWords(query);
      if (!words) return [];
      return ids(await table.search(words, 'fts').select(['id']).limit(k).toArray());
    },
    vector: async (query, k) =>
      ids(await table.vectorSearch(Array.from(query)).distanceType('dot').select(['id']).limit(k).toArray()),
    hybrid: async (query, vector, k) => {
      const words = plainWords(query);
      const search = table.query().nearestTo(Array.from(vector)).distanceType('dot');
      const hybrid = words ? search.fullTextSearch(words).rerank(reranker) : search;
      return ids(await hybrid.select(['id']).limit(k).toArray());
    },
    close: async () => {
      table.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** MiniSearch with its default BM25+, words lowercased and Porter-stemmed (the `stemmer` package Evident uses). */
export async function miniSearchPeer(docs: readonly PeerDocument[]): Promise<PeerEngine | undefined> {
  interface MiniSearchIndex {
    addAll(documents: { id: string; text: string }[]): void;
    search(query: string): { id: unknown }[];
  }
  type MiniSearchClass = new (options: { fields: string[]; processTerm: (term: string) => string }) => MiniSearchIndex;
  const mini = await optional<{ default: MiniSearchClass }>('minisearch');
  if (!mini) return undefined;
  const MiniSearch = mini.default;
  const {
    value: index,
    ms,
    cpuMs,
  } = await timed(() => {
    const built = new MiniSearch({
      fields: ['text'],
      processTerm: (term) => stemmer(term.toLowerCase()),
    });
    built.addAll(docs.map((doc) => ({ id: doc.id, text: body(doc) })));
    return built;
  });
  return {
    name: 'MiniSearch 7.2 (BM25+ default, Porter stems)',
    buildMs: ms,
    buildCpuMs: cpuMs,
    keyword: async (query, k) =>
      index
        .search(query)
        .slice(0, k)
        .map((hit) => String(hit.id)),
    close: async () => {},
  };
}

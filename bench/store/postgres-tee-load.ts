/**
 * Fills a SQLite store and a PostgreSQL store with the same documents in one pass, for benches of the read side:
 * the real Ingestor (chunking, analysis, the embedder, the embedding cache) writes to SQLite, and every document
 * write it makes is replayed on PostgreSQL over several connections at once. The HNSW index is dropped after the
 * first write and built once at the end (with enough maintenance memory to build in memory), which is how a bulk
 * load is done and takes minutes instead of the ~18 of one-transaction-per-document ingestion at 100k chunks.
 * Both stores end with identical documents, chunks, keyword text and vectors.
 */
import pg from 'pg';
import type { Evident } from '../../src/evident.ts';
import { Ingestor, type TextRecord } from '../../src/ingest/ingestor.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { parsePostgresUrl } from '../../src/store/postgres/connection.ts';
import type { Store } from '../../src/store/store.ts';

/** Store methods that write a document version; the tee replays them on PostgreSQL with the same arguments. */
const REPLAYED = new Set(['putDocument', 'putDocuments']);

export interface TeeLoadResult {
  documents: number;
  chunks: number;
  /** Wall time of the whole load, and of the final index build alone. */
  loadMs: number;
  indexBuildMs: number;
}

/** Runs `sql` on the store's schema (search_path set) with a client of its own. */
export async function withStoreClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const target = parsePostgresUrl(url);
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    const schema = (
      await client.query<{ s: string }>(
        "SELECT n.nspname AS s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
      )
    ).rows[0]?.s;
    await client.query(`SET search_path = "${target.schema}"${schema ? `, "${schema}"` : ''}`);
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function teeLoad(
  sqlite: Evident,
  postgres: Store,
  databaseUrl: string,
  records: Iterable<TextRecord>,
  options: { concurrency?: number; batch?: number; maxChunks?: number; log?: (line: string) => void } = {},
): Promise<TeeLoadResult> {
  const concurrency = options.concurrency ?? 3;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  let failure: unknown;
  let first = true;
  let droppedIndexes: string[] = [];
  const replay = async (method: string, args: unknown[]): Promise<void> => {
    const call = () =>
      (postgres as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]?.(...args);
    if (first) {
      // The first write creates the vector table and its index; later writes go in without the index.
      first = false;
      await call();
      droppedIndexes = await withStoreClient(databaseUrl, async (c) => {
        const rows = (
          await c.query<{ name: string; def: string }>(
            "SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'chunk_vectors' AND indexdef ILIKE '%USING hnsw%'",
          )
        ).rows;
        for (const row of rows) await c.query(`DROP INDEX "${row.name}"`);
        return rows.map((row) => row.def);
      });
      return;
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (failure) throw failure;
    const p: Promise<unknown> = Promise.resolve(call()).catch((error: unknown) => {
      failure ??= error;
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const store = sqlite.store;
  const tee = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && REPLAYED.has(property)) {
        return async (...args: unknown[]) => {
          const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          await replay(property, args);
          return out;
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const ingestor = new Ingestor({ store: tee, embedder: sqlite.embedder, config: sqlite.config, logger: silentLogger });
  let documents = 0;
  let chunks = 0;
  let batch: TextRecord[] = [];
  let nextLog = 10_000;
  const flush = async () => {
    if (batch.length === 0) return;
    const summary = await ingestor.ingestRecords(batch);
    if (summary.failed > 0)
      throw new Error(`ingestion failed: ${summary.outcomes.find((o) => o.error)?.error?.message ?? 'unknown'}`);
    documents += batch.length;
    chunks += summary.chunks;
    batch = [];
    if (chunks >= nextLog) {
      log(`  loaded ${chunks} chunks (${Math.round((chunks / (performance.now() - started)) * 1000)} chunks/s)`);
      nextLog += 10_000;
    }
  };
  for (const record of records) {
    if (chunks >= (options.maxChunks ?? Infinity)) break;
    batch.push(record);
    // Documents average ~10 chunks: smaller batches near the end keep the overshoot below a batch.
    const left = (options.maxChunks ?? Infinity) - chunks;
    if (batch.length >= Math.max(1, Math.min(options.batch ?? 50, Math.floor(left / 20)))) await flush();
  }
  await flush();
  await Promise.all(inFlight);
  if (failure) throw failure;
  const indexStarted = performance.now();
  await withStoreClient(databaseUrl, async (c) => {
    await c.query("SET maintenance_work_mem = '1GB'");
    for (const def of droppedIndexes) await c.query(def);
    await c.query('VACUUM ANALYZE');
  });
  const indexBuildMs = performance.now() - indexStarted;
  return { documents, chunks, loadMs: performance.now() - started, indexBuildMs };
}

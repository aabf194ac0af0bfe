import pg, { type Pool, type PoolClient } from 'pg';
import type { ChannelHit, Chapter, DocumentRecord, Principal, TableRecord } from '../../domain/index.ts';
import { principalAclKeys } from '../../domain/index.ts';
import { EmbedderMismatchError, StoreError, ValidationError, isEvidentError } from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import type { ApiKeyRecord } from '../api-key.ts';
import { guardTableQuery } from '../sql-guard.ts';
import { validateExtras } from '../sqlite/document-extras.ts';
import type {
  ChunkWithSource,
  DocumentExtras,
  DocumentExtrasInfo,
  DocumentWrite,
  EmbedderInfo,
  MemoryHit,
  MemoryRecord,
  MemoryWrite,
  QuoteHit,
  RunEventRecord,
  RunRecord,
  RunRecordStatus,
  RunStart,
  Store,
  StoreStats,
  SummaryHit,
  TableQueryLimits,
  TableQueryResult,
  ThreadRecord,
  ThreadSummary,
  UserRecord,
} from '../store.ts';
import { validateLimits, validateReplacement, validateWrite } from '../write-validation.ts';
import { aclFilter } from './acl-sql.ts';
import { apiKeys } from './api-keys.ts';
import { connectionError, createPool, parsePostgresUrl, type PostgresTarget } from './connection.ts';
import * as extras from './document-extras.ts';
import { createIngestedTable, dropIngestedTable } from './ingested-tables.ts';
import { CORPUS, KeywordStatsDelta, insertPostings, keywordDocument, rankByBm25, type KeywordTable } from './keyword-index.ts';
import { memories } from './memories.ts';
import { migratePostgres } from './migrate.ts';
import { POSTGRES_MIGRATIONS, type SchemaNames } from './migrations/index.ts';
import {
  CHUNK_COLUMNS,
  DOCUMENT_COLUMNS,
  bytesToFloats,
  floatsToBytes,
  toChunkWithSource,
  toDocumentRecord,
  toUserRecord,
  vectorLiteral,
  type ChunkRow,
  type DocumentRow,
  type UserRow,
} from './row-mappers.ts';
import { runLog } from './run-log.ts';
import { runTableQuery } from './table-query.ts';

export interface PostgresStoreOptions {
  logger?: Logger;
  /** The schema of the store's tables; overrides `?schema=` in the URL (default `evident`). */
  schema?: string;
  /** Connections this process keeps at most. */
  poolSize?: number;
}

const CHUNKS: KeywordTable = { corpus: CORPUS.chunks, table: 'chunks' };
/** Deadlocks and serialization failures are retried: the write is whole or absent, so running it again is safe. */
const RETRIED_SQLSTATES = new Set(['40P01', '40001']);
const WRITE_ATTEMPTS = 4;
/** Postgres cannot cancel an HNSW search past this many candidates; more costs more than it finds. */
const MAX_EF_SEARCH = 1000;

/**
 * Opens (creating and migrating if needed) the store in a PostgreSQL database with pgvector:
 * `postgres://user:password@host:5432/database[?schema=name]`.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  return PostgresStore.open(url, options);
}

/** The scale-out backend: many processes share one database. Use `openPostgresStore`. */
export class PostgresStore implements Store {
  readonly backend = 'postgres';
  readonly sqlDialect = 'postgresql';
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    private readonly target: PostgresTarget,
    private readonly names: SchemaNames,
  ) {}

  get location(): string {
    return this.target.location;
  }

  /** The connection string (with its password): for the LangGraph checkpointer, which opens its own pool. */
  get connectionString(): string {
    return this.target.connectionString;
  }

  get schema(): string {
    return this.names.schema;
  }

  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const target = parsePostgresUrl(url, options.schema);
    const logger = options.logger ?? silentLogger;
    const names: SchemaNames = { schema: target.schema, tables: `${target.schema}_tables`, reader: `${target.schema}_reader` };
    const bootstrap = new pg.Client({ connectionString: target.connectionString, connectionTimeoutMillis: 10_000 });
    try {
      await bootstrap.connect();
    } catch (error) {
      throw connectionError(target, error);
    }
    let vectorSchema: string;
    try {
      vectorSchema = await ensurePgvector(bootstrap, target);
      await bootstrap.query(`SET search_path = "${names.schema}", "${vectorSchema}"`);
      const { from, to } = await migratePostgres(bootstrap as unknown as PoolClient, POSTGRES_MIGRATIONS, names, target.location);
      if (from !== to) logger.info('store migrated', { location: target.location, from, to });
    } finally {
      await bootstrap.end();
    }
    const pool = createPool(target, [names.schema, vectorSchema], options.poolSize);
    // An idle connection that dies (server restart) must not crash the process; the next query reconnects.
    pool.on('error', (error) => logger.warn('postgres connection lost', { location: target.location, error: error.message }));
    return new PostgresStore(pool, target, names);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  // ---------------------------------------------------------------- documents

  async putDocument(write: DocumentWrite): Promise<void> {
    validateWrite(write);
    const keywords = write.keywordText.map(keywordDocument);
    await this.transaction('write a document', async (c) => {
      const { document } = write;
      // Not waiting for the WAL flush: a crash can lose the last writes but never half of one, and the next
      // ingest redoes what is missing (content hash). Ingestion commits once per document, so this is its speed.
      await c.query('SET LOCAL synchronous_commit = off');
      await this.lockDocument(c, document.docId);
      if (write.tables.length > 0) await this.lockTableNames(c);
      await this.bindEmbedder(c, write.embedder);
      const stats = new KeywordStatsDelta();
      const existing = (await c.query<{ pk: number }>('SELECT pk FROM documents WHERE doc_id = $1', [document.docId])).rows[0];
      if (existing) await this.removeDocumentRows(c, Number(existing.pk), stats);

      const acl = [...new Set(document.acl)];
      const docPk = Number(
        (
          await c.query<{ pk: number }>(
            `INSERT INTO documents (doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, acl, ingested_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING pk`,
            [document.docId, document.source, document.title, document.type, document.contentHash, document.bytes, document.tags,
              document.pageCount ?? null, write.chunks.length, acl, new Date()],
          )
        ).rows[0]?.pk,
      );
      if (write.chunks.length > 0) {
        const inserted = await c.query<{ pk: number; id: string }>(
          `INSERT INTO chunks (id, doc_pk, ordinal, text, heading_path, page, start_offset, end_offset, keyword, keyword_length)
           SELECT id, $1, ordinal, text, array(SELECT json_array_elements_text(heading)), page, s, e, k::tsvector, l
           FROM unnest($2::text[], $3::int[], $4::text[], $5::json[], $6::int[], $7::int[], $8::int[], $9::text[], $10::int[])
             AS u(id, ordinal, text, heading, page, s, e, k, l)
           RETURNING pk, id`,
          [
            docPk,
            write.chunks.map((chunk) => chunk.id),
            write.chunks.map((chunk) => chunk.ordinal),
            write.chunks.map((chunk) => chunk.text),
            write.chunks.map((chunk) => JSON.stringify(chunk.headingPath)),
            write.chunks.map((chunk) => chunk.page ?? null),
            write.chunks.map((chunk) => chunk.startOffset),
            write.chunks.map((chunk) => chunk.endOffset),
            keywords.map((k) => k.tsvector),
            keywords.map((k) => k.length),
          ],
        );
        const pkOf = new Map(inserted.rows.map((row) => [row.id, Number(row.pk)]));
        await c.query('INSERT INTO chunk_vectors (chunk_pk, embedding) SELECT * FROM unnest($1::bigint[], $2::vector[])', [
          write.chunks.map((chunk) => pkOf.get(chunk.id)),
          write.vectors.map(vectorLiteral),
        ]);
        keywords.forEach((k) => stats.add(CORPUS.chunks, k));
        await insertPostings(c, CORPUS.chunks, write.chunks.map((chunk) => pkOf.get(chunk.id) as number), keywords);
      }
      if (write.chapters.length > 0) {
        await c.query(
          `INSERT INTO chapters (doc_pk, ordinal, title, heading_path, start_offset, end_offset, page)
           SELECT $1, o, t, array(SELECT json_array_elements_text(h)), s, e, p
           FROM unnest($2::int[], $3::text[], $4::json[], $5::int[], $6::int[], $7::int[]) AS u(o, t, h, s, e, p)`,
          [
            docPk,
            write.chapters.map((ch) => ch.ordinal),
            write.chapters.map((ch) => ch.title),
            write.chapters.map((ch) => JSON.stringify(ch.headingPath)),
            write.chapters.map((ch) => ch.startOffset),
            write.chapters.map((ch) => ch.endOffset),
            write.chapters.map((ch) => ch.page ?? null),
          ],
        );
      }
      for (const [ordinal, table] of write.tables.entries()) {
        const created = await createIngestedTable(c, this.names, document.docId, table);
        await c.query('INSERT INTO doc_tables (doc_pk, ordinal, title, sql_name, columns, row_count) VALUES ($1, $2, $3, $4, $5, $6)', [
          docPk,
          ordinal,
          table.title,
          created.sqlName,
          JSON.stringify(created.columns),
          created.rowCount,
        ]);
      }
      if (write.extras) await extras.insertExtras(c, docPk, write.extras, stats);
      await stats.apply(c);
    });
  }

  async getDocument(docId: string): Promise<DocumentRecord | undefined> {
    const row = await this.withClient('read a document', async (c) => (await c.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.doc_id = $1`, [docId])).rows[0]);
    return row ? toDocumentRecord(row) : undefined;
  }

  async listDocuments(principal: Principal): Promise<DocumentRecord[]> {
    const acl = aclFilter('d', principalAclKeys(principal), 1);
    const rows = await this.withClient('list documents', async (c) => (await c.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE ${acl.sql} ORDER BY d.doc_id COLLATE "C"`, acl.params)).rows);
    return rows.map(toDocumentRecord);
  }

  async deleteDocument(docId: string): Promise<boolean> {
    return this.transaction('delete a document', async (c) => {
      await this.lockDocument(c, docId);
      const existing = (await c.query<{ pk: number }>('SELECT pk FROM documents WHERE doc_id = $1', [docId])).rows[0];
      if (!existing) return false;
      const stats = new KeywordStatsDelta();
      await this.removeDocumentRows(c, Number(existing.pk), stats);
      await stats.apply(c);
      return true;
    });
  }

  async listChapters(docId: string, principal: Principal): Promise<Chapter[]> {
    const acl = aclFilter('d', principalAclKeys(principal), 2);
    const rows = await this.withClient('list chapters', async (c) =>
      (
        await c.query<{ ordinal: number; title: string; heading_path: string[]; start_offset: number; end_offset: number; page: number | null }>(
          `SELECT ch.ordinal, ch.title, ch.heading_path, ch.start_offset, ch.end_offset, ch.page
           FROM chapters ch JOIN documents d ON d.pk = ch.doc_pk WHERE d.doc_id = $1 AND ${acl.sql} ORDER BY ch.ordinal`,
          [docId, ...acl.params],
        )
      ).rows,
    );
    return rows.map((row) => ({
      ordinal: row.ordinal,
      title: row.title,
      headingPath: row.heading_path,
      startOffset: row.start_offset,
      endOffset: row.end_offset,
      ...(row.page === null ? {} : { page: row.page }),
    }));
  }

  async listTables(principal: Principal): Promise<TableRecord[]> {
    const acl = aclFilter('d', principalAclKeys(principal), 1);
    const rows = await this.withClient('list tables', async (c) =>
      (
        await c.query<{ doc_id: string; title: string; sql_name: string; columns: TableRecord['columns']; row_count: number }>(
          `SELECT d.doc_id, t.title, t.sql_name, t.columns, t.row_count
           FROM doc_tables t JOIN documents d ON d.pk = t.doc_pk WHERE ${acl.sql} ORDER BY d.doc_id COLLATE "C", t.ordinal`,
          acl.params,
        )
      ).rows,
    );
    return rows.map((row) => ({ docId: row.doc_id, title: row.title, sqlName: row.sql_name, columns: row.columns, rowCount: row.row_count }));
  }

  async queryTables(sql: string, principal: Principal, limits: TableQueryLimits): Promise<TableQueryResult> {
    this.assertOpen();
    validateLimits(limits);
    const allowed = (await this.listTables(principal)).map((table) => table.sqlName.toLowerCase());
    const guarded = guardTableQuery(sql, { allowedTables: allowed, dialect: this.sqlDialect });
    return runTableQuery(this.pool, this.names, guarded, allowed, limits);
  }

  async getChunks(chunkIds: readonly string[], principal: Principal): Promise<ChunkWithSource[]> {
    if (chunkIds.length === 0) return [];
    const acl = aclFilter('d', principalAclKeys(principal), 2);
    const rows = await this.withClient('read chunks', async (c) =>
      (
        await c.query<ChunkRow>(
          `SELECT ${CHUNK_COLUMNS} FROM unnest($1::text[]) WITH ORDINALITY AS j(id, n)
           JOIN chunks c ON c.id = j.id JOIN documents d ON d.pk = c.doc_pk WHERE ${acl.sql} ORDER BY j.n`,
          [[...new Set(chunkIds)], ...acl.params],
        )
      ).rows,
    );
    return rows.map(toChunkWithSource);
  }

  // ---------------------------------------------------------------- summaries and quotes

  async putDocumentExtras(docId: string, contentHash: string, documentExtras: DocumentExtras): Promise<boolean> {
    return this.transaction('write document extras', async (c) => {
      await this.lockDocument(c, docId);
      const row = (await c.query<{ pk: number }>('SELECT pk FROM documents WHERE doc_id = $1 AND content_hash = $2', [docId, contentHash])).rows[0];
      if (!row) return false;
      const docPk = Number(row.pk);
      const chunkIds = new Set((await c.query<{ id: string }>('SELECT id FROM chunks WHERE doc_pk = $1', [docPk])).rows.map((chunk) => chunk.id));
      validateExtras(docId, documentExtras, chunkIds);
      const stats = new KeywordStatsDelta();
      await extras.removeExtras(c, docPk, stats);
      await extras.insertExtras(c, docPk, documentExtras, stats);
      await stats.apply(c);
      return true;
    });
  }

  async documentExtrasInfo(docId: string): Promise<DocumentExtrasInfo | undefined> {
    return this.withClient('read document extras', (c) => extras.extrasInfo(c, docId));
  }

  async searchSummaries(terms: readonly string[], principal: Principal, limit: number): Promise<SummaryHit[]> {
    return this.withClient('search summaries', (c) => extras.searchSummaries(c, terms, principalAclKeys(principal), limit));
  }

  async searchQuotes(terms: readonly string[], principal: Principal, limit: number): Promise<QuoteHit[]> {
    return this.withClient('search quotes', (c) => extras.searchQuotes(c, terms, principalAclKeys(principal), limit));
  }

  // ---------------------------------------------------------------- search

  async keywordSearch(terms: readonly string[], principal: Principal, limit: number): Promise<ChannelHit[]> {
    return this.withClient('search keywords', async (c) => {
      const ranked = await rankByBm25(c, CHUNKS, terms, aclFilter('d', principalAclKeys(principal), 1), limit);
      if (ranked.length === 0) return [];
      const ids = new Map(
        (await c.query<{ pk: number; id: string }>('SELECT pk, id FROM chunks WHERE pk = ANY($1::bigint[])', [ranked.map((r) => r.pk)])).rows.map(
          (row) => [Number(row.pk), row.id],
        ),
      );
      return ranked
        .flatMap(({ pk, score }) => (ids.has(pk) ? [{ chunkId: ids.get(pk) as string, score }] : []))
        .map((hit, i) => ({ ...hit, rank: i + 1 }));
    });
  }

  /**
   * HNSW (cosine) with the principal filter in the same statement. pgvector's iterative scan keeps walking the
   * graph until the filter has let `limit` rows through, so a restrictive ACL does not starve the result.
   */
  async vectorSearch(vector: Float32Array, principal: Principal, limit: number): Promise<ChannelHit[]> {
    if (limit <= 0) return [];
    return this.transaction('search vectors', async (c) => {
      const embedder = await this.readEmbedder(c);
      if (!embedder) return [];
      if (vector.length !== embedder.dimension) {
        throw new ValidationError(
          `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
          { hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.` },
        );
      }
      const k = Math.floor(limit);
      await c.query(`SET LOCAL hnsw.ef_search = ${Math.min(MAX_EF_SEARCH, Math.max(40, k))}`);
      await c.query('SET LOCAL hnsw.iterative_scan = strict_order');
      const acl = aclFilter('d', principalAclKeys(principal), 3);
      const rows = await c.query<{ id: string; score: number }>(
        `SELECT c.id, 1 - (v.embedding <=> $1::vector) AS score
         FROM chunk_vectors v JOIN chunks c ON c.pk = v.chunk_pk JOIN documents d ON d.pk = c.doc_pk
         WHERE ${acl.sql} ORDER BY v.embedding <=> $1::vector LIMIT $2`,
        [vectorLiteral(vector), k, ...acl.params],
      );
      return rows.rows.map((row, i) => ({ chunkId: row.id, rank: i + 1, score: Number(row.score) }));
    });
  }

  // ---------------------------------------------------------------- vectors and embedder

  async embedderInfo(): Promise<EmbedderInfo | undefined> {
    return this.withClient('read the embedder', (c) => this.readEmbedder(c));
  }

  async *chunkTexts(batchSize: number): AsyncIterable<ChunkWithSource[]> {
    const size = Math.max(1, Math.floor(batchSize));
    let after = -1;
    for (;;) {
      // Keyset pagination: no transaction is held open across the caller's awaits.
      const rows = await this.withClient('read chunk texts', async (c) =>
        (
          await c.query<ChunkRow & { pk: number }>(
            `SELECT c.pk, ${CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.pk = c.doc_pk WHERE c.pk > $1 ORDER BY c.pk LIMIT $2`,
            [after, size],
          )
        ).rows,
      );
      if (rows.length === 0) return;
      after = Number((rows.at(-1) as { pk: number }).pk);
      yield rows.map(toChunkWithSource);
      if (rows.length < size) return;
    }
  }

  async replaceVectors(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): Promise<void> {
    validateReplacement(embedder, vectors);
    await this.transaction('replace the vectors', async (c) => {
      // Document writes share this row lock; taking it exclusively waits for them and holds off new ones.
      await c.query("SELECT value FROM store_meta WHERE key = 'embedder' FOR UPDATE");
      const chunks = (await c.query<{ pk: number; id: string }>('SELECT pk, id FROM chunks ORDER BY pk')).rows;
      const missing = chunks.filter((chunk) => !vectors.has(chunk.id));
      if (missing.length > 0) {
        throw new ValidationError(
          `Cannot replace the vectors: ${missing.length} of ${chunks.length} chunks have no new vector (first: ${missing[0]?.id}).`,
          { hint: 'Pass one vector per chunk (see chunkTexts), or re-run `evident reindex`.' },
        );
      }
      await this.createVectorTable(c, embedder);
      if (chunks.length > 0) {
        await c.query('INSERT INTO chunk_vectors (chunk_pk, embedding) SELECT * FROM unnest($1::bigint[], $2::vector[])', [
          chunks.map((chunk) => chunk.pk),
          chunks.map((chunk) => vectorLiteral(vectors.get(chunk.id) as Float32Array)),
        ]);
      }
    });
  }

  // ---------------------------------------------------------------- embedding cache

  async cachedEmbeddings(embedderId: string, contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    if (contentHashes.length === 0) return new Map();
    const rows = await this.withClient('read cached embeddings', async (c) =>
      (
        await c.query<{ content_hash: string; vector: Buffer }>(
          'SELECT content_hash, vector FROM embedding_cache WHERE embedder_id = $1 AND content_hash = ANY($2::text[])',
          [embedderId, [...new Set(contentHashes)]],
        )
      ).rows,
    );
    return new Map(rows.map((row) => [row.content_hash, bytesToFloats(row.vector)]));
  }

  async cacheEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    if (entries.size === 0) return;
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await this.withClient('cache embeddings', (c) =>
      c.query(
        `INSERT INTO embedding_cache (embedder_id, content_hash, vector) SELECT $1, h, v FROM unnest($2::text[], $3::bytea[]) AS u(h, v)
         ON CONFLICT (embedder_id, content_hash) DO UPDATE SET vector = excluded.vector`,
        [embedderId, sorted.map(([hash]) => hash), sorted.map(([, vector]) => floatsToBytes(vector))],
      ),
    );
  }

  // ---------------------------------------------------------------- users and keys

  async upsertUser(user: { name: string; groups: string[]; roles?: Principal['roles'] }): Promise<UserRecord> {
    const name = user.name.trim();
    if (!name) throw new ValidationError('A user needs a non-empty name.');
    const row = await this.withClient('save a user', async (c) =>
      (
        await c.query<UserRow>(
          `INSERT INTO users (name, groups, roles, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (name) DO UPDATE SET groups = excluded.groups, roles = CASE WHEN $5 THEN excluded.roles ELSE users.roles END
           RETURNING name, groups, roles, created_at`,
          [name, [...new Set(user.groups)], user.roles ?? ['member'], new Date(), user.roles !== undefined],
        )
      ).rows[0] as UserRow,
    );
    return toUserRecord(row);
  }

  async getUser(name: string): Promise<UserRecord | undefined> {
    const row = await this.withClient('read a user', async (c) => (await c.query<UserRow>('SELECT name, groups, roles, created_at FROM users WHERE name = $1', [name])).rows[0]);
    return row ? toUserRecord(row) : undefined;
  }

  async listUsers(): Promise<UserRecord[]> {
    const rows = await this.withClient('list users', async (c) => (await c.query<UserRow>('SELECT name, groups, roles, created_at FROM users ORDER BY name COLLATE "C"')).rows);
    return rows.map(toUserRecord);
  }

  async createApiKey(user: string): Promise<{ key: string; id: string }> {
    return this.transaction('create an API key', (c) => apiKeys.create(c, user));
  }

  async principalForApiKey(key: string): Promise<Principal | undefined> {
    return this.withClient('check an API key', (c) => apiKeys.principal(c, key));
  }

  async listApiKeys(user: string): Promise<ApiKeyRecord[]> {
    return this.withClient('list API keys', (c) => apiKeys.list(c, user));
  }

  async revokeApiKey(id: string): Promise<boolean> {
    return this.withClient('revoke an API key', (c) => apiKeys.revoke(c, id));
  }

  // ---------------------------------------------------------------- memories

  async addMemory(memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }> {
    return this.withClient('save a memory', (c) => memories.add(c, memory));
  }

  async searchMemories(user: string, vector: Float32Array, limit: number): Promise<MemoryHit[]> {
    return this.withClient('search memories', (c) => memories.search(c, user, vector, limit));
  }

  async listMemories(user: string): Promise<MemoryRecord[]> {
    return this.withClient('list memories', (c) => memories.list(c, user));
  }

  async deleteMemory(user: string, id: string): Promise<boolean> {
    return this.withClient('delete a memory', (c) => memories.delete(c, user, id));
  }

  // ---------------------------------------------------------------- runs

  async startRun(run: RunStart): Promise<RunRecord> {
    return this.transaction('record a run', (c) => runLog.startRun(c, run));
  }

  async finishRun(runId: string, outcome: { status: RunRecordStatus; error?: string }): Promise<RunRecord> {
    return this.transaction('record a run', (c) => runLog.finishRun(c, runId, outcome));
  }

  async listRuns(threadId: string, user: string): Promise<RunRecord[]> {
    return this.withClient('list runs', (c) => runLog.listRuns(c, threadId, user));
  }

  async listThreads(user: string): Promise<ThreadSummary[]> {
    return this.withClient('list threads', (c) => runLog.listThreads(c, user));
  }

  async createThread(thread: { threadId: string; owner: string; metadata?: Record<string, unknown> }): Promise<ThreadRecord> {
    return this.withClient('create a thread', (c) => runLog.createThread(c, thread));
  }

  async getThread(threadId: string): Promise<ThreadRecord | undefined> {
    return this.withClient('read a thread', (c) => runLog.getThread(c, threadId));
  }

  async deleteThread(threadId: string, owner: string): Promise<boolean> {
    return this.withClient('delete a thread', (c) => runLog.deleteThread(c, threadId, owner));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    return this.withClient('read a run', (c) => runLog.get(c, runId));
  }

  async requestRunCancel(runId: string): Promise<boolean> {
    return this.withClient('request a run\'s cancellation', (c) => runLog.requestCancel(c, runId));
  }

  async appendRunEvents(events: readonly RunEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    await this.withClient('record run events', (c) => runLog.appendRunEvents(c, events));
  }

  async listRunEvents(runId: string, afterSeq: number, limit = 1000): Promise<RunEventRecord[]> {
    return this.withClient('read run events', (c) => runLog.listRunEvents(c, runId, afterSeq, limit));
  }

  async stats(): Promise<StoreStats> {
    return this.withClient('read statistics', async (c) => {
      const counts = (
        await c.query<{ documents: number; chunks: number; tables: number; users: number }>(
          `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
                  (SELECT count(*) FROM doc_tables) AS tables, (SELECT count(*) FROM users) AS users`,
        )
      ).rows[0] as { documents: number; chunks: number; tables: number; users: number };
      return { ...counts, embedder: await this.readEmbedder(c) };
    });
  }

  // ---------------------------------------------------------------- internals

  /** Serialises writers of one document (same doc_id) across processes until the transaction ends. */
  private async lockDocument(c: PoolClient, docId: string): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`evident-doc:${this.names.schema}`, docId]);
  }

  /** Ingested-table names are picked by looking at the taken ones: one picker at a time. */
  private async lockTableNames(c: PoolClient): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`evident-tables:${this.names.schema}`]);
  }

  /** Deletes a document and everything hanging off it (vectors, chunks, chapters, extras by cascade; tables by name). */
  private async removeDocumentRows(c: PoolClient, docPk: number, stats: KeywordStatsDelta): Promise<void> {
    await stats.subtractStored(c, CHUNKS, 'doc_pk = $1', [docPk]);
    await extras.removeExtras(c, docPk, stats);
    for (const { sql_name } of (await c.query<{ sql_name: string }>('SELECT sql_name FROM doc_tables WHERE doc_pk = $1', [docPk])).rows) {
      await dropIngestedTable(c, this.names.tables, sql_name);
    }
    await c.query('DELETE FROM documents WHERE pk = $1', [docPk]);
  }

  /**
   * Binds the store to `embedder` on its first write and refuses any other afterwards. A bound store's writers
   * share the binding row's lock (so a reindex waits for them); the first writer takes it exclusively.
   */
  private async bindEmbedder(c: PoolClient, embedder: EmbedderInfo): Promise<void> {
    const current = await this.readEmbedder(c);
    const locked = (await c.query<{ value: EmbedderInfo | null }>(`SELECT value FROM store_meta WHERE key = 'embedder' ${current ? 'FOR SHARE' : 'FOR UPDATE'}`))
      .rows[0]?.value;
    if (locked) {
      if (locked.id !== embedder.id || locked.dimension !== embedder.dimension) throw new EmbedderMismatchError(locked, embedder);
      return;
    }
    await this.createVectorTable(c, embedder);
  }

  /** (Re)creates the vector table with its HNSW index for `embedder`'s dimension and records the binding. */
  private async createVectorTable(c: PoolClient, embedder: EmbedderInfo): Promise<void> {
    await c.query('DROP TABLE IF EXISTS chunk_vectors');
    await c.query(`CREATE TABLE chunk_vectors (
      chunk_pk bigint PRIMARY KEY REFERENCES chunks(pk) ON DELETE CASCADE,
      embedding vector(${embedder.dimension}) NOT NULL
    )`);
    await c.query('CREATE INDEX chunk_vectors_hnsw ON chunk_vectors USING hnsw (embedding vector_cosine_ops)');
    await c.query("UPDATE store_meta SET value = $1 WHERE key = 'embedder'", [JSON.stringify({ id: embedder.id, dimension: embedder.dimension })]);
  }

  private async readEmbedder(c: PoolClient): Promise<EmbedderInfo | undefined> {
    const value = (await c.query<{ value: EmbedderInfo | null }>("SELECT value FROM store_meta WHERE key = 'embedder'")).rows[0]?.value;
    return value ? { id: value.id, dimension: value.dimension } : undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError(`The store ${this.location} is closed.`, { hint: 'Open it again.' });
  }

  /** One pooled connection for `fn`, outside any explicit transaction. */
  private async withClient<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.connect();
    try {
      return await fn(c);
    } catch (error) {
      throw this.failure(what, error);
    } finally {
      c.release();
    }
  }

  /** `fn` in one transaction, retried whole when Postgres aborts it for a deadlock or serialization conflict. */
  private async transaction<T>(what: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.connect();
      let broken = false;
      try {
        await c.query('BEGIN');
        const result = await fn(c);
        await c.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await c.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRIED_SQLSTATES.has(code) && attempt < WRITE_ATTEMPTS) continue;
        throw this.failure(what, error);
      } finally {
        c.release(broken);
      }
    }
  }

  private async connect(): Promise<PoolClient> {
    this.assertOpen();
    try {
      return await this.pool.connect();
    } catch (error) {
      throw connectionError(this.target, error);
    }
  }

  /** Evident errors pass through; Postgres failures become a StoreError that names the operation. */
  private failure(what: string, error: unknown): Error {
    if (isEvidentError(error)) return error;
    return new StoreError(`Could not ${what} in ${this.location}: ${(error as Error)?.message ?? String(error)}.`, { cause: error });
  }
}

/** Installs pgvector if it is missing (needs the privilege to) and returns the schema its types live in. */
async function ensurePgvector(client: pg.Client, target: PostgresTarget): Promise<string> {
  const find = async () => (await client.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'")).rows[0]?.schema;
  const found = await find();
  if (found) return found.replaceAll('"', '');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new StoreError(`The database at ${target.location} has no pgvector extension and it could not be installed: ${(error as Error).message}.`, {
      cause: error,
      hint: 'Install pgvector on the server and run CREATE EXTENSION vector once as a superuser (managed services list it as an extension to enable).',
    });
  }
  return ((await find()) ?? 'public').replaceAll('"', '');
}

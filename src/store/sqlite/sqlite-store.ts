import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { ChannelHit, Chapter, DocumentRecord, Principal, TableRecord } from '../../domain/index.ts';
import { principalAclKeys } from '../../domain/index.ts';
import {
  EmbedderMismatchError,
  QueryRejectedError,
  StoreError,
  ValidationError,
  isEvidentError,
} from '../../errors/index.ts';
import { silentLogger, type Logger } from '../../logging/logger.ts';
import { guardTableQuery, notOneSelectError, tableNotAllowedError } from '../sql-guard.ts';
import type { ApiKeyRecord } from '../api-key.ts';
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
  RunRecord,
  RunEventRecord,
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
import { VISIBLE_DOC_PKS, aclCondition } from './acl-sql.ts';
import { createDotKernel } from './dot-kernel.ts';
import { ftsMatch, parseFtsTerms, type FtsTerm } from './fts-query.ts';
import { createIngestedTable, dropIngestedTable } from './ingested-tables.ts';
import * as apiKeys from './api-keys.ts';
import * as extras from './document-extras.ts';
import * as memories from './memories.ts';
import { migrate } from './migrate.ts';
import { SqliteRunLog } from './run-log.ts';
import { MIGRATIONS } from './migrations/index.ts';
import {
  toChapter,
  toChunkWithSource,
  toDocumentRecord,
  toTableRecord,
  toUserRecord,
  type ChapterRow,
  type ChunkRow,
  type DocumentRow,
  type TableRow,
  type UserRow,
} from './row-mappers.ts';
import { TableQueryRunner } from './table-query-runner.ts';
import { blobToVector, vectorToBlob } from './vector-codec.ts';
import { VectorIndex } from './vector-index.ts';

type Db = Database.Database;

export interface SqliteStoreOptions {
  logger?: Logger;
  readonly?: boolean;
}

const BUSY_TIMEOUT_MS = 5_000;
/** Distinct principals whose visible-row lists are kept per generation. */
const VISIBLE_ROWS_CACHE_SIZE = 32;
const TERM_STATS_CACHE_SIZE = 50_000;

interface KeywordRow {
  chunkId: string;
  score: number;
  windowRows?: number;
}

const DOCUMENT_COLUMNS = `d.doc_id, d.source, d.title, d.type, d.content_hash, d.bytes, d.tags, d.page_count,
  d.chunk_count, d.ingested_at,
  (SELECT json_group_array(entry) FROM (SELECT entry FROM document_acl WHERE doc_pk = d.pk ORDER BY position)) AS acl`;

/** What a committed write changed in the vector table, replayed onto this process's in-memory index. */
interface VectorDelta {
  removed: number[];
  added: { chunkPk: number; docPk: number; vector: Float32Array }[];
  /** The write replaced every vector (reindex): rebuild instead of replaying. */
  rebuild?: boolean;
}

/**
 * Opens (creating if needed) the embedded store: one SQLite file in WAL mode with sqlite-vec loaded and the
 * schema migrated to the current version.
 */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<Store> {
  return SqliteStore.open(path, options);
}

/** The embedded backend. Exported as a class only for SQLite-specific tests; use `openSqliteStore`. */
export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  readonly sqlDialect = 'sqlite';
  private readonly statements = new Map<string, Database.Statement>();
  /** Vectors in memory for the kernel; loaded on the first vector query, then kept in step with `generation`. */
  private index: VectorIndex | undefined;
  private indexGeneration = -1;
  /** Row lists of the index a principal may see, by ACL key set; valid for `indexGeneration` only. */
  private readonly visibleRows = new Map<string, Int32Array | 'all'>();
  private loads = 0;
  /** Chunk total and per-term document frequencies for `informativeTerms`, valid for one generation. */
  private termStats: { generation: number; total: number; df: Map<string, number> } = {
    generation: -1,
    total: 0,
    df: new Map(),
  };
  /** Table queries run in a child process with a read-only connection of its own, so they can be stopped. */
  private readonly tableQueries = new TableQueryRunner(() =>
    this.location === ':memory:' ? { image: this.db.serialize() } : { path: this.location },
  );

  private constructor(
    private readonly db: Db,
    readonly location: string,
    private readonly logger: Logger,
    private readonly readonly: boolean,
  ) {}

  /** How often the vector index was (re)built from the file: observable by tests of cross-process freshness. */
  get indexLoads(): number {
    return this.loads;
  }

  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    const memory = path === ':memory:';
    const location = memory ? path : resolve(path);
    const logger = options.logger ?? silentLogger;
    const readonly = options.readonly ?? false;
    let db: Db;
    try {
      if (!memory && !readonly) mkdirSync(dirname(location), { recursive: true });
      db = new Database(location, { readonly, fileMustExist: readonly });
    } catch (error) {
      const reason = (error as Error).message;
      throw new StoreError(`Cannot open the store ${location}: ${reason}.`, {
        cause: error,
        hint: readonly
          ? 'Check that the file exists and is readable.'
          : 'Give --db (or EVIDENT_DB) a file path in a writable folder.',
      });
    }
    try {
      sqliteVec.load(db);
      if (!readonly && !memory) db.pragma('journal_mode = WAL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('foreign_keys = ON');
      if (!readonly) db.pragma('synchronous = NORMAL');
      const { from, to } = migrate(db, MIGRATIONS, { location, readonly });
      if (from !== to) logger.info('store migrated', { location, from, to });
    } catch (error) {
      db.close();
      if (isEvidentError(error)) throw error;
      throw new StoreError(`Cannot open the store ${location}: it is not a usable Evident database.`, {
        cause: error,
        hint: 'Point --db at an Evident store or at a new file.',
      });
    }
    return new SqliteStore(db, location, logger, readonly);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.tableQueries.close();
    this.db.close();
    this.index = undefined;
    this.visibleRows.clear();
  }

  // ---------------------------------------------------------------- documents

  async putDocument(write: DocumentWrite): Promise<void> {
    this.assertWritable();
    validateWrite(write);
    const delta: VectorDelta = { removed: [], added: [] };
    this.write('write a document', delta, () => {
      this.bindEmbedder(write.embedder);
      const existing = this.stmt('SELECT pk FROM documents WHERE doc_id = ?').get(write.document.docId) as
        | { pk: number }
        | undefined;
      if (existing) delta.removed.push(...this.removeDocumentRows(existing.pk));

      const { document } = write;
      const docPk = Number(
        this.stmt(
          `INSERT INTO documents (doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, ingested_at)
           VALUES (@docId, @source, @title, @type, @contentHash, @bytes, @tags, @pageCount, @chunkCount, @ingestedAt)`,
        ).run({
          docId: document.docId,
          source: document.source,
          title: document.title,
          type: document.type,
          contentHash: document.contentHash,
          bytes: document.bytes,
          tags: JSON.stringify(document.tags),
          pageCount: document.pageCount ?? null,
          chunkCount: write.chunks.length,
          ingestedAt: new Date().toISOString(),
        }).lastInsertRowid,
      );
      const insertAcl = this.stmt('INSERT OR IGNORE INTO document_acl (doc_pk, entry, position) VALUES (?, ?, ?)');
      document.acl.forEach((entry, position) => insertAcl.run(docPk, entry, position));

      const insertChunk = this.stmt(
        `INSERT INTO chunks (id, doc_pk, ordinal, text, heading_path, page, start_offset, end_offset)
         VALUES (@id, @docPk, @ordinal, @text, @headingPath, @page, @startOffset, @endOffset)`,
      );
      const insertFts = this.stmt('INSERT INTO chunk_fts (rowid, keyword_text) VALUES (?, ?)');
      const insertVector = this.stmt('INSERT INTO chunk_vectors (rowid, embedding) VALUES (?, ?)');
      write.chunks.forEach((chunk, i) => {
        const chunkPk = Number(
          insertChunk.run({
            id: chunk.id,
            docPk,
            ordinal: chunk.ordinal,
            text: chunk.text,
            headingPath: JSON.stringify(chunk.headingPath),
            page: chunk.page ?? null,
            startOffset: chunk.startOffset,
            endOffset: chunk.endOffset,
          }).lastInsertRowid,
        );
        insertFts.run(chunkPk, write.keywordText[i] as string);
        const vector = write.vectors[i] as Float32Array;
        // vec0 accepts only integer-typed rowids, which better-sqlite3 binds for bigint.
        insertVector.run(BigInt(chunkPk), vectorToBlob(vector));
        delta.added.push({ chunkPk, docPk, vector });
      });

      const insertChapter = this.stmt(
        `INSERT INTO chapters (doc_pk, ordinal, title, heading_path, start_offset, end_offset, page)
         VALUES (@docPk, @ordinal, @title, @headingPath, @startOffset, @endOffset, @page)`,
      );
      for (const chapter of write.chapters) {
        insertChapter.run({
          docPk,
          ordinal: chapter.ordinal,
          title: chapter.title,
          headingPath: JSON.stringify(chapter.headingPath),
          startOffset: chapter.startOffset,
          endOffset: chapter.endOffset,
          page: chapter.page ?? null,
        });
      }

      const registerTable = this.stmt(
        `INSERT INTO doc_tables (doc_pk, ordinal, title, sql_name, columns, row_count)
         VALUES (@docPk, @ordinal, @title, @sqlName, @columns, @rowCount)`,
      );
      write.tables.forEach((table, ordinal) => {
        const created = createIngestedTable(this.db, document.docId, table);
        registerTable.run({
          docPk,
          ordinal,
          title: table.title,
          sqlName: created.sqlName,
          columns: JSON.stringify(created.columns),
          rowCount: created.rowCount,
        });
      });
      if (write.extras) extras.insertExtras((sql) => this.stmt(sql), docPk, write.extras);
    });
  }

  async getDocument(docId: string): Promise<DocumentRecord | undefined> {
    const row = this.stmt(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.doc_id = ?`).get(docId) as
      | DocumentRow
      | undefined;
    return row ? toDocumentRecord(row) : undefined;
  }

  async listDocuments(principal: Principal): Promise<DocumentRecord[]> {
    const keys = principalAclKeys(principal);
    const rows = this.stmt(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE 1 = 1${aclCondition('d.pk', keys)} ORDER BY d.doc_id`,
    ).all(aclParams(keys)) as DocumentRow[];
    return rows.map(toDocumentRecord);
  }

  async deleteDocument(docId: string): Promise<boolean> {
    this.assertWritable();
    if (!this.stmt('SELECT 1 FROM documents WHERE doc_id = ?').get(docId)) return false;
    const delta: VectorDelta = { removed: [], added: [] };
    let deleted = false;
    this.write('delete a document', delta, () => {
      const existing = this.stmt('SELECT pk FROM documents WHERE doc_id = ?').get(docId) as { pk: number } | undefined;
      if (!existing) return;
      delta.removed.push(...this.removeDocumentRows(existing.pk));
      deleted = true;
    });
    return deleted;
  }

  async listChapters(docId: string, principal: Principal): Promise<Chapter[]> {
    const keys = principalAclKeys(principal);
    const rows = this.stmt(
      `SELECT ch.ordinal, ch.title, ch.heading_path, ch.start_offset, ch.end_offset, ch.page
       FROM chapters ch JOIN documents d ON d.pk = ch.doc_pk
       WHERE d.doc_id = @docId${aclCondition('d.pk', keys)} ORDER BY ch.ordinal`,
    ).all({ docId, ...aclParams(keys) }) as ChapterRow[];
    return rows.map(toChapter);
  }

  async listTables(principal: Principal): Promise<TableRecord[]> {
    const keys = principalAclKeys(principal);
    const rows = this.stmt(
      `SELECT d.doc_id, t.title, t.sql_name, t.columns, t.row_count
       FROM doc_tables t JOIN documents d ON d.pk = t.doc_pk
       WHERE 1 = 1${aclCondition('d.pk', keys)} ORDER BY d.doc_id, t.ordinal`,
    ).all(aclParams(keys)) as TableRow[];
    return rows.map(toTableRecord);
  }

  async queryTables(sql: string, principal: Principal, limits: TableQueryLimits): Promise<TableQueryResult> {
    this.assertOpen();
    validateLimits(limits);
    const allowed = (await this.listTables(principal)).map((table) => table.sqlName.toLowerCase());
    const guarded = guardTableQuery(sql, { allowedTables: allowed, dialect: this.sqlDialect });
    const reply = await this.tableQueries.run({
      sql: guarded.sql,
      allowed,
      maxRows: Math.floor(limits.maxRows),
      timeoutMs: limits.timeoutMs,
    });
    if (reply.ok) return { columns: reply.columns, rows: reply.rows, truncated: reply.truncated };
    if (reply.reason === 'not_allowed') throw tableNotAllowedError(allowed);
    if (reply.reason === 'not_select') throw notOneSelectError(allowed, 'it is not a read-only SELECT');
    // SQLite's message is passed on only when it cannot depend on tables the principal may not see: a syntax
    // error (found before names are resolved), or any error once the parser vouched for every table.
    const schemaFree = /syntax error|incomplete input|unrecognized token/i.test(reply.message);
    if (/no such table/i.test(reply.message) || (!schemaFree && guarded.tables === undefined)) {
      throw tableNotAllowedError(allowed);
    }
    throw new QueryRejectedError('query_rejected', `The query failed: ${reply.message}.`, {
      hint: 'Check the column names and types listed for the table; quote names with spaces in double quotes.',
    });
  }

  async getChunks(chunkIds: readonly string[], principal: Principal): Promise<ChunkWithSource[]> {
    if (chunkIds.length === 0) return [];
    const keys = principalAclKeys(principal);
    const rows = this.stmt(
      `SELECT c.id, d.doc_id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset,
              d.source, d.title AS doc_title
       FROM json_each(@ids) j JOIN chunks c ON c.id = j.value JOIN documents d ON d.pk = c.doc_pk
       WHERE 1 = 1${aclCondition('c.doc_pk', keys)} ORDER BY j.key`,
    ).all({ ids: JSON.stringify([...new Set(chunkIds)]), ...aclParams(keys) }) as ChunkRow[];
    return rows.map(toChunkWithSource);
  }

  // ---------------------------------------------------------------- summaries and quotes

  async putDocumentExtras(docId: string, contentHash: string, documentExtras: DocumentExtras): Promise<boolean> {
    this.assertWritable();
    let written = false;
    this.write('write document extras', { removed: [], added: [] }, () => {
      const row = this.stmt('SELECT pk FROM documents WHERE doc_id = ? AND content_hash = ?').get(docId, contentHash) as { pk: number } | undefined;
      if (!row) return;
      const chunkIds = new Set((this.stmt('SELECT id FROM chunks WHERE doc_pk = ?').all(row.pk) as { id: string }[]).map((chunk) => chunk.id));
      extras.validateExtras(docId, documentExtras, chunkIds);
      const stmt = (sql: string) => this.stmt(sql);
      extras.removeExtras(stmt, row.pk);
      extras.insertExtras(stmt, row.pk, documentExtras);
      written = true;
    });
    return written;
  }

  async documentExtrasInfo(docId: string): Promise<DocumentExtrasInfo | undefined> {
    this.assertOpen();
    return this.guard('read document extras', () => extras.extrasInfo((sql) => this.stmt(sql), docId));
  }

  async searchSummaries(terms: readonly string[], principal: Principal, limit: number): Promise<SummaryHit[]> {
    this.assertOpen();
    return this.guard('search summaries', () => extras.searchSummaries((sql) => this.stmt(sql), terms, principalAclKeys(principal), limit));
  }

  async searchQuotes(terms: readonly string[], principal: Principal, limit: number): Promise<QuoteHit[]> {
    this.assertOpen();
    return this.guard('search quotes', () => extras.searchQuotes((sql) => this.stmt(sql), terms, principalAclKeys(principal), limit));
  }

  // ---------------------------------------------------------------- search

  async keywordSearch(terms: readonly string[], principal: Principal, limit: number): Promise<ChannelHit[]> {
    this.assertOpen();
    const parsed = parseFtsTerms(terms);
    if (parsed.length === 0 || limit <= 0) return [];
    const keys = principalAclKeys(principal);
    const k = Math.floor(limit);
    const rows = this.db.transaction(() => {
      // Fast path: rank inside FTS5 with a bounded window, join and filter only the window.
      const informative = this.informativeTerms(parsed);
      const window = keys === undefined ? k : k * 3 + 50;
      const windowed = this.stmt(
        `WITH f AS MATERIALIZED (
           SELECT rowid AS pk, bm25(chunk_fts) AS score FROM chunk_fts WHERE chunk_fts MATCH @match
           ORDER BY score, rowid LIMIT @window)
         SELECT c.id AS chunkId, -f.score AS score, (SELECT count(*) FROM f) AS windowRows
         FROM f JOIN chunks c ON c.pk = f.pk
         WHERE 1 = 1${aclCondition('c.doc_pk', keys)}
         ORDER BY f.score, f.pk LIMIT @limit`,
      ).all({ match: ftsMatch(informative), window, limit: k, ...aclParams(keys) }) as KeywordRow[];
      if (windowed.length >= k) return windowed;
      const complete = informative.length === parsed.length && (windowed[0]?.windowRows ?? window) < window;
      if (complete) return windowed;
      // Too few visible hits in the window, or dropped terms could add some: rank every match, filtered first.
      return this.stmt(
        `SELECT c.id AS chunkId, -bm25(chunk_fts) AS score
         FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
         WHERE chunk_fts MATCH @match${aclCondition('c.doc_pk', keys)}
         ORDER BY bm25(chunk_fts), c.pk LIMIT @limit`,
      ).all({ match: ftsMatch(parsed), limit: k, ...aclParams(keys) }) as KeywordRow[];
    })();
    // bm25() is negative (lower is better); the queries negate it, so higher is better as the port says.
    return rows.map((row, i) => ({ chunkId: row.chunkId, rank: i + 1, score: row.score }));
  }

  async vectorSearch(vector: Float32Array, principal: Principal, limit: number): Promise<ChannelHit[]> {
    this.assertOpen();
    if (limit <= 0) return [];
    const keys = principalAclKeys(principal);
    // One read transaction: the index generation, the principal's visible documents and the chunk ids all come
    // from the same snapshot, even while another process writes.
    const hits = this.db.transaction(() => {
      const embedder = this.readEmbedder();
      if (!embedder) return [];
      if (vector.length !== embedder.dimension) {
        throw new ValidationError(
          `The query vector has dimension ${vector.length}, but the store's vectors (${embedder.id}) have ${embedder.dimension}.`,
          { hint: `Embed queries with ${embedder.id}, or run \`evident reindex\` with the configured embedder.` },
        );
      }
      const index = this.currentIndex(embedder);
      const rows = this.rowsVisibleTo(index, keys);
      if (rows !== 'all' && rows.length === 0) return [];
      const found = index.search(vector, Math.floor(limit), rows === 'all' ? undefined : rows);
      const ids = new Map(
        (
          this.stmt('SELECT pk, id FROM chunks WHERE pk IN (SELECT value FROM json_each(?))').all(
            JSON.stringify(found.map((hit) => hit.chunkPk)),
          ) as { pk: number; id: string }[]
        ).map((row) => [row.pk, row.id]),
      );
      return found.flatMap((hit) => {
        const chunkId = ids.get(hit.chunkPk);
        return chunkId === undefined ? [] : [{ chunkId, score: hit.score }];
      });
    })();
    return hits.map((hit, i) => ({ chunkId: hit.chunkId, rank: i + 1, score: hit.score }));
  }

  // ---------------------------------------------------------------- vectors and embedder

  async embedderInfo(): Promise<EmbedderInfo | undefined> {
    return this.readEmbedder();
  }

  async *chunkTexts(batchSize: number): AsyncIterable<ChunkWithSource[]> {
    const size = Math.max(1, Math.floor(batchSize));
    let after = -1;
    for (;;) {
      // Keyset pagination: no read transaction is held open across the caller's awaits.
      const rows = this.stmt(
        `SELECT c.pk, c.id, d.doc_id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset,
                d.source, d.title AS doc_title
         FROM chunks c JOIN documents d ON d.pk = c.doc_pk WHERE c.pk > ? ORDER BY c.pk LIMIT ?`,
      ).all(after, size) as (ChunkRow & { pk: number })[];
      if (rows.length === 0) return;
      after = (rows.at(-1) as { pk: number }).pk;
      yield rows.map(toChunkWithSource);
      if (rows.length < size) return;
    }
  }

  async replaceVectors(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): Promise<void> {
    this.assertWritable();
    validateReplacement(embedder, vectors);
    this.write('replace the vectors', { removed: [], added: [], rebuild: true }, () => {
      const chunks = this.stmt('SELECT pk, id FROM chunks ORDER BY pk').all() as { pk: number; id: string }[];
      const missing = chunks.filter((chunk) => !vectors.has(chunk.id));
      if (missing.length > 0) {
        throw new ValidationError(
          `Cannot replace the vectors: ${missing.length} of ${chunks.length} chunks have no new vector (first: ${missing[0]?.id}).`,
          { hint: 'Pass one vector per chunk (see chunkTexts), or re-run `evident reindex`.' },
        );
      }
      this.createVectorTable(embedder);
      const insert = this.stmt('INSERT INTO chunk_vectors (rowid, embedding) VALUES (?, ?)');
      for (const chunk of chunks) insert.run(BigInt(chunk.pk), vectorToBlob(vectors.get(chunk.id) as Float32Array));
    });
  }

  // ---------------------------------------------------------------- embedding cache

  async cachedEmbeddings(embedderId: string, contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
    if (contentHashes.length === 0) return new Map();
    const rows = this.stmt(
      `SELECT content_hash, vector FROM embedding_cache
       WHERE embedder_id = ? AND content_hash IN (SELECT value FROM json_each(?))`,
    ).all(embedderId, JSON.stringify([...new Set(contentHashes)])) as { content_hash: string; vector: Buffer }[];
    return new Map(rows.map((row) => [row.content_hash, blobToVector(row.vector)]));
  }

  async cacheEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
    this.assertWritable();
    if (entries.size === 0) return;
    const insert = this.stmt(
      'INSERT OR REPLACE INTO embedding_cache (embedder_id, content_hash, vector) VALUES (?, ?, ?)',
    );
    this.guard('cache embeddings', () =>
      this.db
        .transaction(() => {
          for (const [hash, vector] of entries) insert.run(embedderId, hash, vectorToBlob(vector));
        })
        .immediate(),
    );
  }

  // ---------------------------------------------------------------- users

  async upsertUser(user: { name: string; groups: string[]; roles?: Principal['roles'] }): Promise<UserRecord> {
    this.assertWritable();
    const name = user.name.trim();
    if (!name) throw new ValidationError('A user needs a non-empty name.');
    const row = this.guard('save a user', () =>
      this.db
        .transaction(() => {
          this.stmt(
            `INSERT INTO users (name, groups, roles, created_at) VALUES (@name, @groups, @roles, @createdAt)
             ON CONFLICT (name) DO UPDATE SET groups = excluded.groups,
               roles = CASE WHEN @rolesGiven THEN excluded.roles ELSE users.roles END`,
          ).run({
            name,
            groups: JSON.stringify([...new Set(user.groups)]),
            roles: JSON.stringify(user.roles ?? ['member']),
            rolesGiven: user.roles === undefined ? 0 : 1,
            createdAt: new Date().toISOString(),
          });
          return this.stmt('SELECT name, groups, roles, created_at FROM users WHERE name = ?').get(name) as UserRow;
        })
        .immediate(),
    );
    return toUserRecord(row);
  }

  async getUser(name: string): Promise<UserRecord | undefined> {
    const row = this.stmt('SELECT name, groups, roles, created_at FROM users WHERE name = ?').get(name) as
      | UserRow
      | undefined;
    return row ? toUserRecord(row) : undefined;
  }

  async listUsers(): Promise<UserRecord[]> {
    const rows = this.stmt('SELECT name, groups, roles, created_at FROM users ORDER BY name').all() as UserRow[];
    return rows.map(toUserRecord);
  }

  // ---------------------------------------------------------------- api keys

  async createApiKey(user: string): Promise<{ key: string; id: string }> {
    this.assertWritable();
    return this.guard('create an API key', () => this.db.transaction(() => apiKeys.createApiKey((sql) => this.stmt(sql), user)).immediate());
  }

  async principalForApiKey(key: string): Promise<Principal | undefined> {
    return this.guard('check an API key', () => apiKeys.principalForApiKey((sql) => this.stmt(sql), key));
  }

  async listApiKeys(user: string): Promise<ApiKeyRecord[]> {
    return this.guard('list API keys', () => apiKeys.listApiKeys((sql) => this.stmt(sql), user));
  }

  async revokeApiKey(id: string): Promise<boolean> {
    this.assertWritable();
    return this.guard('revoke an API key', () => apiKeys.revokeApiKey((sql) => this.stmt(sql), id));
  }

  // ---------------------------------------------------------------- memories

  async addMemory(memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }> {
    this.assertWritable();
    const stmt = (sql: string) => this.stmt(sql);
    return this.guard('save a memory', () => this.db.transaction(() => memories.addMemory(stmt, memory)).immediate());
  }

  async searchMemories(user: string, vector: Float32Array, limit: number): Promise<MemoryHit[]> {
    return this.guard('search memories', () => memories.searchMemories((sql) => this.stmt(sql), user, vector, limit));
  }

  async listMemories(user: string): Promise<MemoryRecord[]> {
    return this.guard('list memories', () => memories.listMemories((sql) => this.stmt(sql), user));
  }

  async deleteMemory(user: string, id: string): Promise<boolean> {
    this.assertWritable();
    return this.guard('delete a memory', () => memories.deleteMemory((sql) => this.stmt(sql), user, id));
  }

  // ---------------------------------------------------------------- runs

  async startRun(run: RunStart): Promise<RunRecord> {
    this.assertWritable();
    return this.guard('record a run', () => new SqliteRunLog(this.db).startRun(run));
  }

  async finishRun(runId: string, outcome: { status: RunRecordStatus; error?: string }): Promise<RunRecord> {
    this.assertWritable();
    return this.guard('record a run', () => new SqliteRunLog(this.db).finishRun(runId, outcome));
  }

  async listRuns(threadId: string, user: string): Promise<RunRecord[]> {
    this.assertOpen();
    return this.guard('list runs', () => new SqliteRunLog(this.db).listRuns(threadId, user));
  }

  async listThreads(user: string): Promise<ThreadSummary[]> {
    this.assertOpen();
    return this.guard('list threads', () => new SqliteRunLog(this.db).listThreads(user));
  }

  async createThread(thread: { threadId: string; owner: string; metadata?: Record<string, unknown> }): Promise<ThreadRecord> {
    this.assertWritable();
    return this.guard('create a thread', () => new SqliteRunLog(this.db).createThread(thread));
  }

  async getThread(threadId: string): Promise<ThreadRecord | undefined> {
    this.assertOpen();
    return this.guard('read a thread', () => new SqliteRunLog(this.db).getThread(threadId));
  }

  async deleteThread(threadId: string, owner: string): Promise<boolean> {
    this.assertWritable();
    return this.guard('delete a thread', () => new SqliteRunLog(this.db).deleteThread(threadId, owner));
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    this.assertOpen();
    return this.guard('read a run', () => new SqliteRunLog(this.db).get(runId));
  }

  async requestRunCancel(runId: string): Promise<boolean> {
    this.assertWritable();
    return this.guard('request a run\'s cancellation', () => new SqliteRunLog(this.db).requestCancel(runId));
  }

  async appendRunEvents(events: readonly RunEventRecord[]): Promise<void> {
    this.assertWritable();
    if (events.length === 0) return;
    return this.guard('record run events', () => new SqliteRunLog(this.db).appendRunEvents(events));
  }

  async listRunEvents(runId: string, afterSeq: number, limit = 1000): Promise<RunEventRecord[]> {
    this.assertOpen();
    return this.guard('read run events', () => new SqliteRunLog(this.db).listRunEvents(runId, afterSeq, limit));
  }

  async stats(): Promise<StoreStats> {
    const counts = this.stmt(
      `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
              (SELECT count(*) FROM doc_tables) AS tables, (SELECT count(*) FROM users) AS users`,
    ).get() as { documents: number; chunks: number; tables: number; users: number };
    return { ...counts, embedder: this.readEmbedder() };
  }

  /** The write counter every content write bumps; other processes compare it to see this one's writes. */
  generation(): number {
    const row = this.stmt("SELECT value FROM store_meta WHERE key = 'generation'").get() as { value: string } | undefined;
    return row ? Number(row.value) : 0;
  }

  // ---------------------------------------------------------------- internals

  /**
   * Runs a content write as one IMMEDIATE transaction that also bumps `generation`, then replays its vector
   * changes onto the in-memory index — only if the index was current before the write; otherwise another
   * process wrote in between and the index is dropped, to be reloaded on the next vector query.
   */
  private write(what: string, delta: VectorDelta, body: () => void): void {
    const { before, after } = this.guard(what, () =>
      this.db
        .transaction(() => {
          const previous = this.generation();
          body();
          this.stmt("UPDATE store_meta SET value = ? WHERE key = 'generation'").run(String(previous + 1));
          return { before: previous, after: previous + 1 };
        })
        .immediate(),
    );
    this.visibleRows.clear();
    const index = this.index;
    if (!index || delta.rebuild || this.indexGeneration !== before) {
      this.index = undefined;
      this.indexGeneration = -1;
      return;
    }
    for (const chunkPk of delta.removed) index.remove(chunkPk);
    for (const { chunkPk, docPk, vector } of delta.added) index.upsert(chunkPk, docPk, vector);
    this.indexGeneration = after;
  }

  /** Deletes a document and everything hanging off it; returns the chunk rowids whose vectors went with it. */
  private removeDocumentRows(docPk: number): number[] {
    const chunkPks = (this.stmt('SELECT pk FROM chunks WHERE doc_pk = ?').all(docPk) as { pk: number }[]).map(
      (row) => row.pk,
    );
    const deleteFts = this.stmt('DELETE FROM chunk_fts WHERE rowid = ?');
    const hasVectors = this.hasVectorTable();
    const deleteVector = hasVectors ? this.stmt('DELETE FROM chunk_vectors WHERE rowid = ?') : undefined;
    for (const pk of chunkPks) {
      deleteFts.run(pk);
      deleteVector?.run(BigInt(pk));
    }
    for (const { sql_name } of this.stmt('SELECT sql_name FROM doc_tables WHERE doc_pk = ?').all(docPk) as {
      sql_name: string;
    }[]) {
      dropIngestedTable(this.db, sql_name);
    }
    extras.removeExtras((sql) => this.stmt(sql), docPk);
    // chunks, ACL rows, chapters and the table registry go by ON DELETE CASCADE.
    this.stmt('DELETE FROM documents WHERE pk = ?').run(docPk);
    return chunkPks;
  }

  /** Binds the store to `embedder` on its first write; refuses any other embedder afterwards. */
  private bindEmbedder(embedder: EmbedderInfo): void {
    const bound = this.readEmbedder();
    if (bound) {
      if (bound.id !== embedder.id || bound.dimension !== embedder.dimension) {
        throw new EmbedderMismatchError(bound, embedder);
      }
      return;
    }
    this.createVectorTable(embedder);
  }

  /** (Re)creates the vec0 table for `embedder`'s dimension and records the binding. */
  private createVectorTable(embedder: EmbedderInfo): void {
    this.db.exec('DROP TABLE IF EXISTS chunk_vectors');
    this.db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[${embedder.dimension}])`);
    this.stmt("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('embedder', ?)").run(
      JSON.stringify({ id: embedder.id, dimension: embedder.dimension }),
    );
    // Statements prepared against the dropped table are invalid now.
    for (const [sql] of this.statements) if (sql.includes('chunk_vectors')) this.statements.delete(sql);
  }

  private hasVectorTable(): boolean {
    return this.stmt("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get() !== undefined;
  }

  private readEmbedder(): EmbedderInfo | undefined {
    const row = this.stmt("SELECT value FROM store_meta WHERE key = 'embedder'").get() as { value: string } | undefined;
    if (!row) return undefined;
    const parsed = JSON.parse(row.value) as EmbedderInfo;
    return { id: parsed.id, dimension: parsed.dimension };
  }

  /**
   * The query terms worth scoring. FTS5 clamps the IDF of a term found in half the chunks or more to 1e-6, so
   * such a term changes no ranking among chunks that match another term, yet costs a bm25() call per chunk it
   * matches (tens of ms at 100k chunks). Those terms are left out of the fast path; prefix terms always stay.
   */
  private informativeTerms(terms: readonly FtsTerm[]): FtsTerm[] {
    if (terms.length < 2) return [...terms];
    const generation = this.generation();
    if (this.termStats.generation !== generation) {
      const row = this.stmt('SELECT coalesce(sum(chunk_count), 0) AS total FROM documents').get() as { total: number };
      this.termStats = { generation, total: row.total, df: new Map() };
    }
    const { total, df } = this.termStats;
    const lookup = this.stmt('SELECT doc FROM chunk_fts_vocab WHERE term = ?');
    const kept = terms.filter(({ term, prefix }) => {
      if (prefix) return true;
      let count = df.get(term);
      if (count === undefined) {
        count = (lookup.get(term) as { doc: number } | undefined)?.doc ?? 0;
        if (df.size >= TERM_STATS_CACHE_SIZE) df.clear();
        df.set(term, count);
      }
      return count * 2 < total;
    });
    return kept.length > 0 ? kept : [...terms];
  }

  /** The in-memory index as of the current generation, (re)loading it from the vec0 table when stale. */
  private currentIndex(embedder: EmbedderInfo): VectorIndex {
    const generation = this.generation();
    if (this.index && this.indexGeneration === generation && this.index.dimension === embedder.dimension) {
      return this.index;
    }
    const started = performance.now();
    this.index = undefined;
    this.visibleRows.clear();
    const index = new VectorIndex(createDotKernel(), embedder.dimension);
    const rows = this.stmt(
      'SELECT v.rowid AS pk, c.doc_pk, v.embedding FROM chunk_vectors v JOIN chunks c ON c.pk = v.rowid',
    )
      .raw()
      .iterate() as IterableIterator<[number, number, Buffer]>;
    for (const [pk, docPk, blob] of rows) {
      // Blobs may sit at any byte offset of a pooled buffer; view in place only when aligned.
      const vector =
        blob.byteOffset % 4 === 0
          ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2)
          : blobToVector(blob);
      index.upsert(pk, docPk, vector);
    }
    this.index = index;
    this.indexGeneration = generation;
    this.loads++;
    this.logger.debug('vector index loaded', {
      vectors: index.size,
      dimension: embedder.dimension,
      kernel: index.kernelKind,
      ms: Math.round(performance.now() - started),
    });
    return index;
  }

  /** Rows of `index` the principal may see ('all' when nothing is filtered), cached per ACL key set. */
  private rowsVisibleTo(index: VectorIndex, keys: readonly string[] | undefined): Int32Array | 'all' {
    if (keys === undefined) return 'all';
    const cacheKey = JSON.stringify([...new Set(keys)].sort());
    const cached = this.visibleRows.get(cacheKey);
    if (cached) return cached;
    const docs = new Set(
      (this.stmt(`SELECT pk FROM ${VISIBLE_DOC_PKS}`).all({ keys: cacheKey }) as { pk: number }[]).map((row) => row.pk),
    );
    const rows = index.rowsWhere((docPk) => docs.has(docPk));
    const result = rows.length === index.size ? 'all' : rows;
    if (this.visibleRows.size >= VISIBLE_ROWS_CACHE_SIZE) {
      const oldest = this.visibleRows.keys().next().value;
      if (oldest !== undefined) this.visibleRows.delete(oldest);
    }
    this.visibleRows.set(cacheKey, result);
    return result;
  }

  private stmt(sql: string): Database.Statement {
    this.assertOpen();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private assertOpen(): void {
    if (!this.db.open) throw new StoreError(`The store ${this.location} is closed.`, { hint: 'Open it again.' });
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readonly) {
      throw new StoreError(`The store ${this.location} is open read-only.`, { hint: 'Open it without read-only to write.' });
    }
  }

  /** Evident errors pass through; SQLite failures become a StoreError that names the operation, not the data. */
  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (isEvidentError(error)) throw error;
      throw new StoreError(`Could not ${what} in ${this.location}.`, { cause: error });
    }
  }
}

const aclParams = (keys: readonly string[] | undefined): Record<string, string> =>
  keys === undefined ? {} : { keys: JSON.stringify(keys) };

import type { ChannelHit, Chapter, DocumentRecord, Principal, TableRecord } from '../../domain/index.ts';
import { isAdmin, principalAclKeys } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import type { DocumentExtras, QuoteHit, SummaryHit } from '../document-extras.ts';
import { validateMetadataFilter } from '../metadata-filter.ts';
import type {
  ChunkWithSource,
  DocumentExtrasInfo,
  DocumentPage,
  DocumentStore,
  DocumentWrite,
  EmbedderInfo,
  TableQueryLimits,
  TableQueryResult,
} from '../ports/document-store.ts';
import { guardTableQuery } from '../sql-guard.ts';
import { resolveTableQueryLimits, tableQueryQueue } from '../table-query-limits.ts';
import {
  validateAcl,
  validateExtras,
  validateReplacement,
  validateWrite,
  validateWrites,
} from '../write-validation.ts';
import { aclFilter } from './acl-sql.ts';
import * as extras from './document-extras.ts';
import {
  createVectorTable,
  insertDocuments,
  lockDocument,
  readEmbedder,
  removeChildren,
  removeDocumentRows,
} from './document-writes.ts';
import { keywordDocument } from './keyword-index.ts';
import { KeywordStatsDelta } from './term-stats.ts';
import type { PostgresPool } from './pool.ts';
import {
  CHUNK_COLUMNS,
  DOCUMENT_COLUMNS,
  bytesToFloats,
  floatsToBytes,
  toChunkWithSource,
  toDocumentRecord,
  vectorLiteral,
  type ChunkRow,
  type DocumentRow,
} from './row-mappers.ts';
import { runTableQuery } from './table-query.ts';
import { keywordSearch, vectorSearch } from './search.ts';
import { CODE_OF_ROW, encodeRowCode, packCodes } from './vector-code-bytes.ts';
import { VectorCodes } from './vector-codes.ts';

/** Documents and search on Postgres: BM25 over a postings table for keywords, pgvector HNSW for vectors. */
/** Table queries running at once per store: a share of the pool, one per principal (the rest wait their turn). */
const TABLE_QUERY_WORKERS = 4;

export function postgresDocumentStore(pool: PostgresPool): DocumentStore {
  const vectorCodes = new VectorCodes();
  const tableQueries = tableQueryQueue(TABLE_QUERY_WORKERS);
  const documents: DocumentStore = {
    sqlDialect: 'postgresql',
    // pgvector's HNSW insertion is most of a write's time, and two server processes insert in parallel.
    concurrentDocumentWrites: 2,

    async putDocument(write: DocumentWrite): Promise<void> {
      validateWrite(write);
      const keywords = write.keywordText.map(keywordDocument);
      await pool.transaction('write a document', (c) => insertDocuments(c, pool.names, [write], [keywords]));
      await recordAclChange(pool);
    },

    async putDocuments(writes: readonly DocumentWrite[]): Promise<void> {
      validateWrites(writes);
      if (writes.length === 0) return;
      const keywords = writes.map((write) => write.keywordText.map(keywordDocument));
      await pool.transaction(`write ${writes.length} documents`, (c) =>
        insertDocuments(c, pool.names, writes, keywords),
      );
      await recordAclChange(pool);
    },

    async getDocument(docId: string): Promise<DocumentRecord | undefined> {
      const row = await pool.withClient(
        'read a document',
        async (c) =>
          (await c.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.doc_id = $1`, [docId]))
            .rows[0],
      );
      return row ? toDocumentRecord(row) : undefined;
    },

    async listDocuments(principal: Principal, page?: DocumentPage): Promise<DocumentRecord[]> {
      const acl = aclFilter('d', principalAclKeys(principal), 1);
      const params: unknown[] = [...acl.params];
      let bounds = '';
      if (page?.after !== undefined) {
        params.push(page.after);
        bounds += ` AND d.doc_id COLLATE "C" > $${params.length}`;
      }
      // Keys and values are parameters: the key names a field of the jsonb object.
      for (const [key, value] of validateMetadataFilter(page?.metadata)) {
        params.push(key, value);
        bounds += ` AND d.metadata ->> $${params.length - 1} = $${params.length}`;
      }
      let limit = '';
      if (page) {
        params.push(page.limit);
        limit = ` LIMIT $${params.length}`;
      }
      const rows = await pool.withClient(
        'list documents',
        async (c) =>
          (
            await c.query<DocumentRow>(
              `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE ${acl.sql}${bounds} ORDER BY d.doc_id COLLATE "C"${limit}`,
              params,
            )
          ).rows,
      );
      return rows.map(toDocumentRecord);
    },

    async deleteDocument(docId: string): Promise<boolean> {
      return afterAclChange(
        pool,
        pool.transaction('delete a document', async (c) => {
          await lockDocument(c, pool.names.schema, docId);
          const existing = (await c.query<{ pk: number }>('SELECT pk FROM documents WHERE doc_id = $1', [docId]))
            .rows[0];
          if (!existing) return false;
          const stats = new KeywordStatsDelta();
          await removeDocumentRows(c, pool.names, Number(existing.pk), stats);
          await removeChildren(c, pool.names, docId, stats);
          await stats.apply(c);
          return true;
        }),
      );
    },

    async listChapters(docId: string, principal: Principal): Promise<Chapter[]> {
      const acl = aclFilter('d', principalAclKeys(principal), 2);
      const rows = await pool.withClient(
        'list chapters',
        async (c) =>
          (
            await c.query<{
              ordinal: number;
              title: string;
              heading_path: string[];
              start_offset: number;
              end_offset: number;
              page: number | null;
            }>(
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
    },

    async readDocumentFile(
      docId: string,
      contentHash: string,
      principal: Principal,
      maxBytes: number,
    ): Promise<Uint8Array<ArrayBuffer> | undefined> {
      const acl = aclFilter('d', principalAclKeys(principal), 4);
      // octet_length of an EXTERNAL value reads its TOAST header only: a file over the bound is never fetched.
      const row = await pool.withClient(
        'read a document file',
        async (c) =>
          (
            await c.query<{ bytes: Buffer }>(
              `SELECT f.bytes FROM document_files f JOIN documents d ON d.pk = f.doc_pk
             WHERE d.doc_id = $1 AND d.content_hash = $2 AND octet_length(f.bytes) <= $3 AND ${acl.sql}`,
              [docId, contentHash, maxBytes, ...acl.params],
            )
          ).rows[0],
      );
      return row ? new Uint8Array(row.bytes) : undefined;
    },

    async listTables(principal: Principal): Promise<TableRecord[]> {
      const acl = aclFilter('d', principalAclKeys(principal), 1);
      const rows = await pool.withClient(
        'list tables',
        async (c) =>
          (
            await c.query<{
              doc_id: string;
              title: string;
              sql_name: string;
              columns: TableRecord['columns'];
              row_count: number;
              description: string | null;
            }>(
              `SELECT d.doc_id, t.title, t.sql_name, t.columns, t.row_count, t.description
             FROM doc_tables t JOIN documents d ON d.pk = t.doc_pk WHERE ${acl.sql} ORDER BY d.doc_id COLLATE "C", t.ordinal`,
              acl.params,
            )
          ).rows,
      );
      return rows.map((row) => ({
        docId: row.doc_id,
        title: row.title,
        sqlName: row.sql_name,
        columns: row.columns,
        rowCount: row.row_count,
        ...(row.description ? { description: row.description } : {}),
      }));
    },

    async queryTables(sql: string, principal: Principal, limits: TableQueryLimits): Promise<TableQueryResult> {
      pool.assertOpen();
      const bounds = resolveTableQueryLimits(limits);
      const asked = performance.now();
      // Admitted in the principal's line first (a fifth waiting query is refused at once), then the tables it may read
      // are read at its turn, the moment of use.
      return tableQueries.run(principal.id, bounds.maxQueuedPerUser, async () => {
        const sqlNames = (await documents.listTables(principal)).map((table) => table.sqlName);
        const allowed = sqlNames.map((name) => name.toLowerCase());
        const guarded = guardTableQuery(sql, { allowedTables: allowed, dialect: documents.sqlDialect });
        const readable = { sqlNames, all: isAdmin(principal) };
        return runTableQuery(() => pool.connect(), pool.names, guarded, readable, bounds, asked);
      });
    },

    async getChunks(chunkIds: readonly string[], principal: Principal): Promise<ChunkWithSource[]> {
      if (chunkIds.length === 0) return [];
      const acl = aclFilter('d', principalAclKeys(principal), 2);
      const rows = await pool.withClient(
        'read chunks',
        async (c) =>
          (
            await c.query<ChunkRow>(
              `SELECT ${CHUNK_COLUMNS}, c.regions FROM unnest($1::text[]) WITH ORDINALITY AS j(id, n)
             JOIN chunks c ON c.id = j.id JOIN documents d ON d.pk = c.doc_pk WHERE ${acl.sql} ORDER BY j.n`,
              [[...new Set(chunkIds)], ...acl.params],
            )
          ).rows,
      );
      return rows.map(toChunkWithSource);
    },

    async updateDocumentAcl(docId: string, contentHash: string, acl: readonly string[]): Promise<boolean> {
      validateAcl(docId, acl);
      return afterAclChange(
        pool,
        pool.transaction('update a document ACL', async (c) => {
          await lockDocument(c, pool.names.schema, docId);
          const entries = [...new Set(acl)];
          const updated = await c.query('UPDATE documents SET acl = $3 WHERE doc_id = $1 AND content_hash = $2', [
            docId,
            contentHash,
            entries,
          ]);
          if ((updated.rowCount ?? 0) === 0) return false;
          // The documents found inside it (its attachments) have its ACL, never a wider one.
          await c.query('UPDATE documents SET acl = $2 WHERE parent_doc_id = $1', [docId, entries]);
          return true;
        }),
      );
    },

    async putDocumentExtras(docId: string, contentHash: string, documentExtras: DocumentExtras): Promise<boolean> {
      return pool.transaction('write document extras', async (c) => {
        await lockDocument(c, pool.names.schema, docId);
        const row = (
          await c.query<{ pk: number }>('SELECT pk FROM documents WHERE doc_id = $1 AND content_hash = $2', [
            docId,
            contentHash,
          ])
        ).rows[0];
        if (!row) return false;
        const docPk = Number(row.pk);
        const chunkIds = new Set(
          (await c.query<{ id: string }>('SELECT id FROM chunks WHERE doc_pk = $1', [docPk])).rows.map(
            (chunk) => chunk.id,
          ),
        );
        validateExtras(docId, documentExtras, chunkIds);
        const stats = new KeywordStatsDelta();
        await extras.removeExtras(c, docPk, stats);
        await extras.insertExtras(c, docPk, documentExtras, stats);
        await stats.apply(c);
        return true;
      });
    },

    async documentExtrasInfo(docId: string): Promise<DocumentExtrasInfo | undefined> {
      return pool.withClient('read document extras', (c) => extras.extrasInfo(c, docId));
    },

    async searchSummaries(terms: readonly string[], principal: Principal, limit: number): Promise<SummaryHit[]> {
      return pool.withClient('search summaries', (c) =>
        extras.searchSummaries(c, terms, principalAclKeys(principal), limit),
      );
    },

    async searchQuotes(terms: readonly string[], principal: Principal, limit: number): Promise<QuoteHit[]> {
      return pool.withClient('search quotes', (c) => extras.searchQuotes(c, terms, principalAclKeys(principal), limit));
    },

    async keywordSearch(terms: readonly string[], principal: Principal, limit: number): Promise<ChannelHit[]> {
      return pool.withClient('search keywords', (c) => keywordSearch(c, terms, principalAclKeys(principal), limit));
    },

    /** Exact: the process's int8 codes pick the candidates, the database ranks them by float32 distance (search.ts). */
    async vectorSearch(vector: Float32Array, principal: Principal, limit: number): Promise<ChannelHit[]> {
      if (limit <= 0) return [];
      return pool.withClient('search vectors', (c) =>
        vectorSearch(c, vector, principalAclKeys(principal), limit, vectorCodes),
      );
    },

    async embedderInfo(): Promise<EmbedderInfo | undefined> {
      return pool.withClient('read the embedder', (c) => readEmbedder(c));
    },

    async *chunkTexts(batchSize: number): AsyncIterable<ChunkWithSource[]> {
      const size = Math.max(1, Math.floor(batchSize));
      let after = -1;
      for (;;) {
        // Keyset pagination: no transaction is held open across the caller's awaits.
        const rows = await pool.withClient(
          'read chunk texts',
          async (c) =>
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
    },

    async replaceVectors(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): Promise<void> {
      validateReplacement(embedder, vectors);
      await pool.transaction('replace the vectors', async (c) => {
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
        await createVectorTable(c, embedder);
        if (chunks.length > 0) {
          await c.query(
            `INSERT INTO chunk_vectors (chunk_pk, embedding, code)
             SELECT u.pk, u.e, ${CODE_OF_ROW} FROM unnest($1::bigint[], $2::vector[]) WITH ORDINALITY AS u(pk, e, i)`,
            [
              chunks.map((chunk) => chunk.pk),
              chunks.map((chunk) => vectorLiteral(vectors.get(chunk.id) as Float32Array)),
              ...packCodes(chunks.map((chunk) => encodeRowCode(vectors.get(chunk.id) as Float32Array))),
            ],
          );
        }
      });
    },

    async cachedEmbeddings(embedderId: string, contentHashes: readonly string[]): Promise<Map<string, Float32Array>> {
      if (contentHashes.length === 0) return new Map();
      const rows = await pool.withClient(
        'read cached embeddings',
        async (c) =>
          (
            await c.query<{ content_hash: string; vector: Buffer }>(
              'SELECT content_hash, vector FROM embedding_cache WHERE embedder_id = $1 AND content_hash = ANY($2::text[])',
              [embedderId, [...new Set(contentHashes)]],
            )
          ).rows,
      );
      return new Map(rows.map((row) => [row.content_hash, bytesToFloats(row.vector)]));
    },

    async cacheEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void> {
      if (entries.size === 0) return;
      const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      await pool.withClient('cache embeddings', (c) =>
        c.query(
          `INSERT INTO embedding_cache (embedder_id, content_hash, vector) SELECT $1, h, v FROM unnest($2::text[], $3::bytea[]) AS u(h, v)
           ON CONFLICT (embedder_id, content_hash) DO UPDATE SET vector = excluded.vector`,
          [embedderId, sorted.map(([hash]) => hash), sorted.map(([, vector]) => floatsToBytes(vector))],
        ),
      );
    },
  };
  return documents;
}

/**
 * Records on the primary where its WAL stood after a change to who may read what (a version, an ACL, a deletion), for
 * every process's standby reads of documents to wait for (read-replicas.ts): a standby within the lag bound may not
 * show a document by an ACL the primary no longer holds. After the commit, so the position covers its commit record.
 */
async function recordAclChange(pool: PostgresPool): Promise<void> {
  await pool.withClient('record an ACL change', (c) =>
    c.query('UPDATE acl_epoch SET position = greatest(position, pg_current_wal_insert_lsn())'),
  );
}

/** `write`'s result, once it is recorded as an ACL change (when it changed anything). */
async function afterAclChange<T>(pool: PostgresPool, write: Promise<T>): Promise<T> {
  const result = await write;
  if (result) await recordAclChange(pool);
  return result;
}

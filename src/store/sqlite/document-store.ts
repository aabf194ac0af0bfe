import { principalAclKeys } from '../../domain/index.ts';
import { QueryRejectedError, ValidationError } from '../../errors/index.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import { validateMetadataFilter } from '../metadata-filter.ts';
import { guardTableQuery, notOneSelectError, tableNotAllowedError } from '../sql-guard.ts';
import { checkResultBytes, resolveTableQueryLimits } from '../table-query-limits.ts';
import {
  validateAcl,
  validateExtras,
  validateReplacement,
  validateWrite,
  validateWrites,
} from '../write-validation.ts';
import { aclCondition, aclParams } from './acl-sql.ts';
import * as extras from './document-extras.ts';
import {
  contentWrite,
  createVectorTable,
  insertDocument,
  insertDocuments,
  readEmbedder,
  removeChildren,
  removeDocumentRows,
} from './document-writes.ts';
import {
  toChapter,
  toChunkWithSource,
  toDocumentRecord,
  toTableRecord,
  type ChapterRow,
  type ChunkRow,
  type DocumentRow,
  type TableRow,
} from './row-mappers.ts';
import type { SqliteConnection } from './connection.ts';
import { keywordSearch, vectorSearch } from './search.ts';
import type { TableQueryRunner } from './table-query/runner.ts';
import type { TermStats } from './term-stats.ts';
import type { VectorCache, VectorDelta } from './vectors/vector-cache.ts';
import { blobToVector, vectorToBlob } from './vectors/vector-codec.ts';

const DOCUMENT_COLUMNS = `d.doc_id, d.source, d.title, d.type, d.content_hash, d.bytes, d.tags, d.page_count,
  d.chunk_count, d.ingested_at, d.metadata, d.parent_doc_id,
  (SELECT json_group_array(entry) FROM (SELECT entry FROM document_acl WHERE doc_pk = d.pk ORDER BY position)) AS acl`;

/** What the SQLite documents adapter works with besides the connection. */
export interface SqliteDocumentParts {
  vectors: VectorCache;
  termStats: TermStats;
  /** Table queries run in a child process with a read-only connection of its own, so they can be stopped. */
  tableQueries: TableQueryRunner;
}

/** Documents and search on SQLite: FTS5 for keywords, vec0 plus the in-memory kernel for vectors. */
export function sqliteDocumentStore(
  conn: SqliteConnection,
  { vectors, termStats, tableQueries }: SqliteDocumentParts,
): DocumentStore {
  const stmt = (sql: string) => conn.stmt(sql);

  const documents: DocumentStore = {
    sqlDialect: 'sqlite',
    // One connection, synchronous writes: a write in flight would only wait for this thread.
    concurrentDocumentWrites: 0,
    keepsAnalysedForms: true,

    async putDocument(write) {
      conn.assertWritable();
      validateWrite(write);
      const delta: VectorDelta = { removed: [], added: [] };
      contentWrite(conn, vectors, 'write a document', delta, () => insertDocument(conn, write, delta));
    },

    async putDocuments(writes) {
      conn.assertWritable();
      validateWrites(writes);
      if (writes.length === 0) return;
      const delta: VectorDelta = { removed: [], added: [] };
      contentWrite(conn, vectors, `write ${writes.length} documents`, delta, () => {
        insertDocuments(conn, writes, delta);
      });
    },

    async getDocument(docId) {
      const row = stmt(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.doc_id = ?`).get(docId) as
        | DocumentRow
        | undefined;
      return row ? toDocumentRecord(row) : undefined;
    },

    async listDocuments(principal, page) {
      const keys = principalAclKeys(principal);
      const after = page?.after !== undefined ? ' AND d.doc_id > @after' : '';
      const limit = page ? ' LIMIT @limit' : '';
      // A validated key is a snake_case word, so it can stand in the JSON path; its value is a parameter.
      const metadata = validateMetadataFilter(page?.metadata);
      const where = metadata.map((_, i) => ` AND json_extract(d.metadata, @metaPath${i}) = @metaValue${i}`).join('');
      const rows = stmt(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE 1 = 1${aclCondition('d.pk', keys)}${after}${where} ORDER BY d.doc_id${limit}`,
      ).all({
        ...aclParams(keys),
        ...(page?.after !== undefined ? { after: page.after } : {}),
        ...(page ? { limit: page.limit } : {}),
        ...Object.fromEntries(
          metadata.flatMap(([key, value], i) => [
            [`metaPath${i}`, `$.${key}`],
            [`metaValue${i}`, value],
          ]),
        ),
      }) as DocumentRow[];
      return rows.map(toDocumentRecord);
    },

    async deleteDocument(docId) {
      conn.assertWritable();
      if (!stmt('SELECT 1 FROM documents WHERE doc_id = ?').get(docId)) return false;
      const delta: VectorDelta = { removed: [], added: [] };
      let deleted = false;
      contentWrite(conn, vectors, 'delete a document', delta, () => {
        const existing = stmt('SELECT pk FROM documents WHERE doc_id = ?').get(docId) as { pk: number } | undefined;
        if (!existing) return;
        delta.removed.push(...removeDocumentRows(conn, existing.pk));
        removeChildren(conn, docId, delta);
        deleted = true;
      });
      return deleted;
    },

    async listChapters(docId, principal) {
      const keys = principalAclKeys(principal);
      const rows = stmt(
        `SELECT ch.ordinal, ch.title, ch.heading_path, ch.start_offset, ch.end_offset, ch.page
         FROM chapters ch JOIN documents d ON d.pk = ch.doc_pk
         WHERE d.doc_id = @docId${aclCondition('d.pk', keys)} ORDER BY ch.ordinal`,
      ).all({ docId, ...aclParams(keys) }) as ChapterRow[];
      return rows.map(toChapter);
    },

    async readDocumentFile(docId, contentHash, principal, maxBytes) {
      conn.assertOpen();
      const keys = principalAclKeys(principal);
      // length() of a BLOB reads the record header only: a file over the bound is never loaded.
      const row = stmt(
        `SELECT f.bytes FROM document_files f JOIN documents d ON d.pk = f.doc_pk
         WHERE d.doc_id = @docId AND d.content_hash = @contentHash AND length(f.bytes) <= @maxBytes${aclCondition('d.pk', keys)}`,
      ).get({ docId, contentHash, maxBytes, ...aclParams(keys) }) as { bytes: Buffer } | undefined;
      return row ? new Uint8Array(row.bytes) : undefined;
    },

    async listTables(principal) {
      const keys = principalAclKeys(principal);
      const rows = stmt(
        `SELECT d.doc_id, t.title, t.sql_name, t.columns, t.row_count, t.description
         FROM doc_tables t JOIN documents d ON d.pk = t.doc_pk
         WHERE 1 = 1${aclCondition('d.pk', keys)} ORDER BY d.doc_id, t.ordinal`,
      ).all(aclParams(keys)) as TableRow[];
      return rows.map(toTableRecord);
    },

    async queryTables(sql, principal, limits) {
      conn.assertOpen();
      const bounds = resolveTableQueryLimits(limits);
      const allowed = (await documents.listTables(principal)).map((table) => table.sqlName.toLowerCase());
      const guarded = guardTableQuery(sql, { allowedTables: allowed, dialect: documents.sqlDialect });
      const reply = await tableQueries.run({ principal: principal.id, sql: guarded.sql, allowed, limits: bounds });
      if (reply.ok) {
        checkResultBytes(reply.columns, reply.rows, bounds);
        return { columns: reply.columns, rows: reply.rows, truncated: reply.truncated };
      }
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
    },

    async getChunks(chunkIds, principal, options) {
      if (chunkIds.length === 0) return [];
      const keys = principalAclKeys(principal);
      const rows = stmt(
        `SELECT c.id, d.doc_id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset,
                d.source, d.title AS doc_title, c.regions${options?.analysed ? ', c.analysed' : ''}
         FROM json_each(@ids) j JOIN chunks c ON c.id = j.value JOIN documents d ON d.pk = c.doc_pk
         WHERE 1 = 1${aclCondition('c.doc_pk', keys)} ORDER BY j.key`,
      ).all({ ids: JSON.stringify([...new Set(chunkIds)]), ...aclParams(keys) }) as ChunkRow[];
      return rows.map(toChunkWithSource);
    },

    async updateDocumentAcl(docId, contentHash, acl) {
      conn.assertWritable();
      validateAcl(docId, acl);
      let written = false;
      // A content write all the same: the generation moves, so cached visible-row lists of every process are dropped.
      contentWrite(conn, vectors, 'update a document ACL', { removed: [], added: [] }, () => {
        const row = stmt('SELECT pk FROM documents WHERE doc_id = ? AND content_hash = ?').get(docId, contentHash) as
          | { pk: number }
          | undefined;
        if (!row) return;
        // The documents found inside it (its attachments) have its ACL, never a wider one.
        const children = stmt('SELECT pk FROM documents WHERE parent_doc_id = ?').all(docId) as { pk: number }[];
        const insertAcl = stmt('INSERT OR IGNORE INTO document_acl (doc_pk, entry, position) VALUES (?, ?, ?)');
        for (const { pk } of [row, ...children]) {
          stmt('DELETE FROM document_acl WHERE doc_pk = ?').run(pk);
          acl.forEach((entry, position) => insertAcl.run(pk, entry, position));
        }
        written = true;
      });
      return written;
    },

    async putDocumentExtras(docId, contentHash, documentExtras) {
      conn.assertWritable();
      let written = false;
      contentWrite(conn, vectors, 'write document extras', { removed: [], added: [] }, () => {
        const row = stmt('SELECT pk FROM documents WHERE doc_id = ? AND content_hash = ?').get(docId, contentHash) as
          | { pk: number }
          | undefined;
        if (!row) return;
        const chunkIds = new Set(
          (stmt('SELECT id FROM chunks WHERE doc_pk = ?').all(row.pk) as { id: string }[]).map((chunk) => chunk.id),
        );
        validateExtras(docId, documentExtras, chunkIds);
        extras.removeExtras(stmt, row.pk);
        extras.insertExtras(stmt, row.pk, documentExtras);
        written = true;
      });
      return written;
    },

    async documentExtrasInfo(docId) {
      conn.assertOpen();
      return conn.guard('read document extras', () => extras.extrasInfo(stmt, docId));
    },

    async searchSummaries(terms, principal, limit) {
      conn.assertOpen();
      return conn.guard('search summaries', () =>
        extras.searchSummaries(stmt, terms, principalAclKeys(principal), limit),
      );
    },

    async searchQuotes(terms, principal, limit) {
      conn.assertOpen();
      return conn.guard('search quotes', () => extras.searchQuotes(stmt, terms, principalAclKeys(principal), limit));
    },

    async keywordSearch(terms, principal, limit) {
      return keywordSearch(conn, termStats, terms, principal, limit);
    },

    async vectorSearch(vector, principal, limit) {
      return vectorSearch(conn, vectors, vector, principal, limit);
    },

    async embedderInfo() {
      return readEmbedder(conn);
    },

    async *chunkTexts(batchSize) {
      const size = Math.max(1, Math.floor(batchSize));
      let after = -1;
      for (;;) {
        // Keyset pagination: no read transaction is held open across the caller's awaits.
        const rows = stmt(
          `SELECT c.pk, c.id, d.doc_id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset,
                  d.source, d.title AS doc_title
           FROM chunks c JOIN documents d ON d.pk = c.doc_pk WHERE c.pk > ? ORDER BY c.pk LIMIT ?`,
        ).all(after, size) as (ChunkRow & { pk: number })[];
        if (rows.length === 0) return;
        after = (rows.at(-1) as { pk: number }).pk;
        yield rows.map(toChunkWithSource);
        if (rows.length < size) return;
      }
    },

    async replaceVectors(embedder, replacement) {
      conn.assertWritable();
      validateReplacement(embedder, replacement);
      contentWrite(conn, vectors, 'replace the vectors', { removed: [], added: [], rebuild: true }, () => {
        const chunks = stmt('SELECT pk, id FROM chunks ORDER BY pk').all() as { pk: number; id: string }[];
        const missing = chunks.filter((chunk) => !replacement.has(chunk.id));
        if (missing.length > 0) {
          throw new ValidationError(
            `Cannot replace the vectors: ${missing.length} of ${chunks.length} chunks have no new vector (first: ${missing[0]?.id}).`,
            { hint: 'Pass one vector per chunk (see chunkTexts), or re-run `evident reindex`.' },
          );
        }
        createVectorTable(conn, embedder);
        const insert = stmt('INSERT INTO chunk_vectors (rowid, embedding) VALUES (?, ?)');
        for (const chunk of chunks)
          insert.run(BigInt(chunk.pk), vectorToBlob(replacement.get(chunk.id) as Float32Array));
      });
    },

    async cachedEmbeddings(embedderId, contentHashes) {
      if (contentHashes.length === 0) return new Map();
      const rows = stmt(
        `SELECT content_hash, vector FROM embedding_cache
         WHERE embedder_id = ? AND content_hash IN (SELECT value FROM json_each(?))`,
      ).all(embedderId, JSON.stringify([...new Set(contentHashes)])) as { content_hash: string; vector: Buffer }[];
      return new Map(rows.map((row) => [row.content_hash, blobToVector(row.vector)]));
    },

    async cacheEmbeddings(embedderId, entries) {
      conn.assertWritable();
      if (entries.size === 0) return;
      const insert = stmt(
        'INSERT OR REPLACE INTO embedding_cache (embedder_id, content_hash, vector) VALUES (?, ?, ?)',
      );
      conn.guard('cache embeddings', () =>
        conn.immediate(() => {
          for (const [hash, vector] of entries) insert.run(embedderId, hash, vectorToBlob(vector));
        }),
      );
    },
  };
  return documents;
}

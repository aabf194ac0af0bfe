import { EmbedderMismatchError } from '../../errors/index.ts';
import type { DocumentWrite, EmbedderInfo } from '../ports/document-store.ts';
import { analysedFormBlob } from './analysed-forms.ts';
import * as extras from './document-extras.ts';
import { createIngestedTable, dropIngestedTable } from './ingested-tables.ts';
import { KeywordPostingsBatch, removeKeywordPostings } from './keyword-postings/postings-writer.ts';
import { settleTails } from './keyword-postings/postings-tails.ts';
import type { SqliteConnection } from './connection.ts';
import type { VectorCache, VectorDelta } from './vectors/vector-cache.ts';
import { vectorToBlob } from './vectors/vector-codec.ts';

/** The statement source the row modules of this folder take. */
const stmt = (conn: SqliteConnection) => (sql: string) => conn.stmt(sql);

/**
 * Runs a content write as one IMMEDIATE transaction that also bumps `generation`, then lets the vector cache
 * follow: other processes see the bumped counter and reload, this one replays `delta`.
 */
export function contentWrite(
  conn: SqliteConnection,
  vectors: VectorCache,
  what: string,
  delta: VectorDelta,
  body: () => void,
): void {
  let written: { before: number; after: number };
  try {
    written = conn.guard(what, () =>
      conn.immediate(() => {
        const previous = conn.generation();
        body();
        conn.stmt("UPDATE store_meta SET value = ? WHERE key = 'generation'").run(String(previous + 1));
        return { before: previous, after: previous + 1 };
      }),
    );
  } catch (error) {
    settleTails(conn, undefined);
    throw error;
  }
  // The keyword postings' tails cache holds this transaction's writes: they are the store's now.
  settleTails(conn, written.after);
  vectors.afterWrite(delta, written.before, written.after);
}

/**
 * Writes one document version with its ACL, chunks (FTS rows and vectors), chapters, tables and extras, replacing
 * the previous version; runs inside `contentWrite`, and records the vectors it removed and added in `delta`.
 */
export function insertDocument(
  conn: SqliteConnection,
  write: DocumentWrite,
  delta: VectorDelta,
  embedderChecked = false,
  batch?: KeywordPostingsBatch,
): void {
  if (!embedderChecked) bindEmbedder(conn, write.embedder);
  // The keyword postings of a batch are written once at its end (insertDocuments); a lone document's at its end.
  const keywords = batch ?? new KeywordPostingsBatch(conn);
  const existing = conn.stmt('SELECT pk FROM documents WHERE doc_id = ?').get(write.document.docId) as
    | { pk: number }
    | undefined;
  if (existing) delta.removed.push(...removeDocumentRows(conn, existing.pk, keywords));
  // The documents found inside the previous version go with it; the new version's come after it in the same batch.
  removeChildren(conn, write.document.docId, delta, keywords);

  const { document } = write;
  const docPk = Number(
    conn
      .stmt(
        `INSERT INTO documents (doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, ingested_at,
           metadata, parent_doc_id)
       VALUES (@docId, @source, @title, @type, @contentHash, @bytes, @tags, @pageCount, @chunkCount, @ingestedAt,
           @metadata, @parent)`,
      )
      .run({
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
        metadata: document.metadata ? JSON.stringify(document.metadata) : null,
        parent: document.parent ?? null,
      }).lastInsertRowid,
  );
  const insertAcl = conn.stmt('INSERT OR IGNORE INTO document_acl (doc_pk, entry, position) VALUES (?, ?, ?)');
  document.acl.forEach((entry, position) => insertAcl.run(docPk, entry, position));

  const insertChunk = conn.stmt(
    `INSERT INTO chunks (id, doc_pk, ordinal, text, heading_path, page, start_offset, end_offset, regions, analysed)
     VALUES (@id, @docPk, @ordinal, @text, @headingPath, @page, @startOffset, @endOffset, @regions, @analysed)`,
  );
  const insertFts = conn.stmt('INSERT INTO chunk_fts (rowid, keyword_text) VALUES (?, ?)');
  const insertVector = conn.stmt('INSERT INTO chunk_vectors (rowid, embedding) VALUES (?, ?)');
  write.chunks.forEach((chunk, i) => {
    const keywordText = write.keywordText[i] as string;
    // The form the worker made (a view into the document's packed forms: bound without a copy), else made here.
    const made = write.analysed?.[i];
    const form = made
      ? Buffer.from(made.buffer, made.byteOffset, made.byteLength)
      : analysedFormBlob(chunk.text, keywordText);
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
        regions: chunk.regions ? JSON.stringify(chunk.regions) : null,
        analysed: form,
      }).lastInsertRowid,
    );
    insertFts.run(chunkPk, keywordText);
    keywords.addChunk(chunkPk, docPk, keywordText, form);
    const vector = write.vectors[i] as Float32Array;
    // vec0 accepts only integer-typed rowids, which better-sqlite3 binds for bigint.
    insertVector.run(BigInt(chunkPk), vectorToBlob(vector));
    delta.added.push({ chunkPk, docPk, vector });
  });

  const insertChapter = conn.stmt(
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

  const registerTable = conn.stmt(
    `INSERT INTO doc_tables (doc_pk, ordinal, title, sql_name, columns, row_count, description)
     VALUES (@docPk, @ordinal, @title, @sqlName, @columns, @rowCount, @description)`,
  );
  write.tables.forEach((table, ordinal) => {
    const created = createIngestedTable(conn.db, document.docId, table);
    registerTable.run({
      docPk,
      ordinal,
      title: table.title,
      sqlName: created.sqlName,
      columns: JSON.stringify(created.columns),
      rowCount: created.rowCount,
      description: table.description ?? null,
    });
  });
  if (write.extras) extras.insertExtras(stmt(conn), docPk, write.extras);
  // better-sqlite3 binds Buffers; a view over the same memory, not a copy.
  const { original } = write;
  if (original)
    conn
      .stmt('INSERT INTO document_files (doc_pk, bytes) VALUES (?, ?)')
      .run(docPk, Buffer.from(original.buffer, original.byteOffset, original.byteLength));
  if (!batch) keywords.flush();
}

/**
 * Writes several document versions inside one `contentWrite`, in order. The store's embedder binding is read once
 * per distinct embedder of the batch, not once per document (a read and a JSON parse each time).
 */
export function insertDocuments(conn: SqliteConnection, writes: readonly DocumentWrite[], delta: VectorDelta): void {
  const checked = new Set<string>();
  const keywords = new KeywordPostingsBatch(conn);
  for (const write of writes) {
    const key = `${write.embedder.id}\n${write.embedder.dimension}`;
    if (!checked.has(key)) {
      bindEmbedder(conn, write.embedder);
      checked.add(key);
    }
    insertDocument(conn, write, delta, true, keywords);
  }
  keywords.flush();
}

/** Removes the documents found inside `docId` (its attachments), recording their vectors in `delta`. */
export function removeChildren(
  conn: SqliteConnection,
  docId: string,
  delta: VectorDelta,
  keywords?: KeywordPostingsBatch,
): void {
  const children = conn.stmt('SELECT pk FROM documents WHERE parent_doc_id = ?').all(docId) as { pk: number }[];
  for (const child of children) delta.removed.push(...removeDocumentRows(conn, child.pk, keywords));
}

/**
 * Deletes a document and everything hanging off it; returns the chunk rowids whose vectors went with it. `keywords`:
 * the keyword postings of the batch being written, flushed first so none of the document's stays behind.
 */
export function removeDocumentRows(conn: SqliteConnection, docPk: number, keywords?: KeywordPostingsBatch): number[] {
  const chunkPks = (conn.stmt('SELECT pk FROM chunks WHERE doc_pk = ?').all(docPk) as { pk: number }[]).map(
    (row) => row.pk,
  );
  const deleteFts = conn.stmt('DELETE FROM chunk_fts WHERE rowid = ?');
  const hasVectors = hasVectorTable(conn);
  const deleteVector = hasVectors ? conn.stmt('DELETE FROM chunk_vectors WHERE rowid = ?') : undefined;
  for (const pk of chunkPks) {
    deleteFts.run(pk);
    deleteVector?.run(BigInt(pk));
  }
  removeKeywordPostings(conn, docPk, chunkPks, keywords);
  for (const { sql_name } of conn.stmt('SELECT sql_name FROM doc_tables WHERE doc_pk = ?').all(docPk) as {
    sql_name: string;
  }[]) {
    dropIngestedTable(conn.db, sql_name);
  }
  extras.removeExtras(stmt(conn), docPk);
  // chunks, ACL rows, chapters, the original file and the table registry go by ON DELETE CASCADE.
  conn.stmt('DELETE FROM documents WHERE pk = ?').run(docPk);
  return chunkPks;
}

/** Binds the store to `embedder` on its first write; refuses any other embedder afterwards. */
export function bindEmbedder(conn: SqliteConnection, embedder: EmbedderInfo): void {
  const bound = readEmbedder(conn);
  if (bound) {
    if (bound.id !== embedder.id || bound.dimension !== embedder.dimension) {
      throw new EmbedderMismatchError(bound, embedder);
    }
    return;
  }
  createVectorTable(conn, embedder);
}

/** (Re)creates the vec0 table for `embedder`'s dimension and records the binding. */
export function createVectorTable(conn: SqliteConnection, embedder: EmbedderInfo): void {
  conn.db.exec('DROP TABLE IF EXISTS chunk_vectors');
  conn.db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[${embedder.dimension}])`);
  conn
    .stmt("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('embedder', ?)")
    .run(JSON.stringify({ id: embedder.id, dimension: embedder.dimension }));
  // Statements prepared against the dropped table are invalid now.
  conn.forgetStatements('chunk_vectors');
}

function hasVectorTable(conn: SqliteConnection): boolean {
  return conn.stmt("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get() !== undefined;
}

export function readEmbedder(conn: SqliteConnection): EmbedderInfo | undefined {
  const row = conn.stmt("SELECT value FROM store_meta WHERE key = 'embedder'").get() as { value: string } | undefined;
  if (!row) return undefined;
  const parsed = JSON.parse(row.value) as EmbedderInfo;
  return { id: parsed.id, dimension: parsed.dimension };
}

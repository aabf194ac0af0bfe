import type { PoolClient } from 'pg';
import { EmbedderMismatchError } from '../../errors/index.ts';
import type { DocumentWrite, EmbedderInfo } from '../ports/document-store.ts';
import * as extras from './document-extras.ts';
import { createIngestedTable, dropIngestedTable } from './ingested-tables.ts';
import { CORPUS, type KeywordDocument, type KeywordTable } from './keyword-index.ts';
import { KeywordStatsDelta } from './term-stats.ts';
import type { SchemaNames } from './migrations/index.ts';
import { vectorLiteral } from './row-mappers.ts';
import { VECTOR_LOG_TRIGGERS, VECTOR_STORAGE } from './migrations/028-vector-log.ts';
import { VECTOR_CODE_COLUMN } from './migrations/029-vector-codes.ts';
import { CODE_OF_ROW, encodeRowCode, packCodes } from './vector-code-bytes.ts';

export const CHUNKS: KeywordTable = { corpus: CORPUS.chunks, table: 'chunks' };

/**
 * Writes document versions (distinct doc_ids) with their chunks (keyword postings and vectors), chapters, tables and
 * extras, each replacing its previous version, inside the caller's transaction. `keywords[i]` are the analysed
 * keyword documents parallel to `writes[i]`'s chunks. The locks and the embedder check are taken once, and the
 * term statistics are applied once, for the whole batch.
 */
export async function insertDocuments(
  c: PoolClient,
  names: SchemaNames,
  writes: readonly DocumentWrite[],
  keywords: readonly (readonly KeywordDocument[])[],
): Promise<void> {
  // Not waiting for the WAL flush: a crash can lose the last writes but never half of one, and the next
  // ingest redoes what is missing (content hash).
  await c.query('SET LOCAL synchronous_commit = off');
  // In doc_id order, so two writers of overlapping batches take the locks in one order and cannot deadlock on them.
  const docIds = writes.map((write) => write.document.docId).sort();
  // One statement: the locks are taken in the array's order (unnest keeps it).
  await c.query('SELECT count(pg_advisory_xact_lock(hashtext($1), hashtext(d))) FROM unnest($2::text[]) AS d', [
    `evident-doc:${names.schema}`,
    docIds,
  ]);
  if (writes.some((write) => write.tables.length > 0)) await lockTableNames(c, names.schema);
  const embedders = new Map(
    writes.map((write) => [`${write.embedder.id}\u0000${write.embedder.dimension}`, write.embedder]),
  );
  for (const embedder of embedders.values()) await bindEmbedder(c, embedder);
  // The stored versions of the batch's documents and the documents found inside them, read once for the batch
  // (under the locks, so no other writer changes them meanwhile); each is removed once, before its replacement.
  const stored = await c.query<{ pk: string; doc_id: string; parent_doc_id: string | null }>(
    'SELECT pk, doc_id, parent_doc_id FROM documents WHERE doc_id = ANY($1::text[]) OR parent_doc_id = ANY($1::text[])',
    [docIds],
  );
  const previous: Previous = { versions: new Map(), children: new Map(), removed: new Set() };
  for (const row of stored.rows) {
    if (docIds.includes(row.doc_id)) previous.versions.set(row.doc_id, Number(row.pk));
    if (row.parent_doc_id !== null && docIds.includes(row.parent_doc_id)) {
      const list = previous.children.get(row.parent_doc_id) ?? [];
      list.push(Number(row.pk));
      previous.children.set(row.parent_doc_id, list);
    }
  }
  const stats = new KeywordStatsDelta();
  const vectors: PendingVectors = { pks: [], literals: [], codes: [] };
  for (const [i, write] of writes.entries())
    await insertOne(c, names, write, keywords[i] ?? [], stats, vectors, previous);
  // The batch's vectors in one statement: one pass of the vector log's trigger (migration 28) for the whole batch.
  // Rows a later document of the batch removed (a parent's new version removes its old attachments) are skipped.
  if (vectors.pks.length > 0) {
    await c.query(
      `INSERT INTO chunk_vectors (chunk_pk, embedding, code)
       SELECT u.pk, u.e, ${CODE_OF_ROW} FROM unnest($1::bigint[], $2::vector[]) WITH ORDINALITY AS u(pk, e, i)
       WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.pk = u.pk)`,
      [vectors.pks, vectors.literals, ...packCodes(vectors.codes)],
    );
  }
  await stats.apply(c);
}

/** The rows a batch replaces: each document's stored version, and the documents found inside it, by doc_id. */
interface Previous {
  versions: Map<string, number>;
  children: Map<string, number[]>;
  removed: Set<number>;
}

/** Vectors of a batch's chunks, written together once every document of the batch is in. */
interface PendingVectors {
  pks: number[];
  literals: string[];
  /** Each vector's int8 code (migration 29), which the processes' vector channels load instead of the vector. */
  codes: Buffer[];
}

/** One document version of a batch: `insertDocuments` has taken its lock and checked its embedder. */
async function insertOne(
  c: PoolClient,
  names: SchemaNames,
  write: DocumentWrite,
  keywords: readonly KeywordDocument[],
  stats: KeywordStatsDelta,
  vectors: PendingVectors,
  previous: Previous,
): Promise<void> {
  const { document } = write;
  // The previous version, then the documents found inside it (the new version's come after it in the same batch).
  const stale = [previous.versions.get(document.docId), ...(previous.children.get(document.docId) ?? [])];
  for (const pk of stale) {
    if (pk === undefined || previous.removed.has(pk)) continue;
    previous.removed.add(pk);
    await removeDocumentRows(c, names, pk, stats);
  }

  const acl = [...new Set(document.acl)];
  const docPk = Number(
    (
      await c.query<{ pk: number }>(
        `INSERT INTO documents (doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, acl, ingested_at,
           metadata, parent_doc_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING pk`,
        [
          document.docId,
          document.source,
          document.title,
          document.type,
          document.contentHash,
          document.bytes,
          document.tags,
          document.pageCount ?? null,
          write.chunks.length,
          acl,
          new Date(),
          document.metadata ? JSON.stringify(document.metadata) : null,
          document.parent ?? null,
        ],
      )
    ).rows[0]?.pk,
  );
  if (write.chunks.length > 0) {
    const inserted = await c.query<{ pk: number; id: string }>(
      `INSERT INTO chunks (id, doc_pk, ordinal, text, heading_path, page, start_offset, end_offset, keyword, keyword_length, regions)
       SELECT id, $1, ordinal, text, array(SELECT json_array_elements_text(heading)), page, s, e, k::tsvector, l, r
       FROM unnest($2::text[], $3::int[], $4::text[], $5::json[], $6::int[], $7::int[], $8::int[], $9::text[], $10::int[], $11::jsonb[])
         AS u(id, ordinal, text, heading, page, s, e, k, l, r)
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
        write.chunks.map((chunk) => (chunk.regions ? JSON.stringify(chunk.regions) : null)),
      ],
    );
    const pkOf = new Map(inserted.rows.map((row) => [row.id, Number(row.pk)]));
    for (const [i, chunk] of write.chunks.entries()) {
      vectors.pks.push(pkOf.get(chunk.id) as number);
      vectors.literals.push(vectorLiteral(write.vectors[i] as Float32Array));
      vectors.codes.push(encodeRowCode(write.vectors[i] as Float32Array));
    }
    keywords.forEach((k) => stats.add(CORPUS.chunks, k));
    stats.addPostings(
      CORPUS.chunks,
      write.chunks.map((chunk) => pkOf.get(chunk.id) as number),
      keywords,
    );
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
    const created = await createIngestedTable(c, names, document.docId, table);
    await c.query(
      'INSERT INTO doc_tables (doc_pk, ordinal, title, sql_name, columns, row_count, description) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        docPk,
        ordinal,
        table.title,
        created.sqlName,
        JSON.stringify(created.columns),
        created.rowCount,
        table.description ?? null,
      ],
    );
  }
  if (write.extras) await extras.insertExtras(c, docPk, write.extras, stats);
  const { original } = write;
  if (original) {
    await c.query('INSERT INTO document_files (doc_pk, bytes) VALUES ($1, $2)', [
      docPk,
      Buffer.from(original.buffer, original.byteOffset, original.byteLength),
    ]);
  }
}

/** Serialises writers of one document (same doc_id) across processes until the transaction ends. */
export async function lockDocument(c: PoolClient, schema: string, docId: string): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`evident-doc:${schema}`, docId]);
}

/** Ingested-table names are picked by looking at the taken ones: one picker at a time. */
async function lockTableNames(c: PoolClient, schema: string): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`evident-tables:${schema}`]);
}

/** Deletes a document and everything hanging off it (vectors, chunks, chapters, extras, the original file by cascade; tables by name). */
/**
 * Removes the documents found inside `docId` (its attachments). They are written and deleted only with it, so the
 * lock on `docId` the caller holds covers them.
 */
export async function removeChildren(
  c: PoolClient,
  names: SchemaNames,
  docId: string,
  stats: KeywordStatsDelta,
): Promise<void> {
  const children = await c.query<{ pk: number }>('SELECT pk FROM documents WHERE parent_doc_id = $1', [docId]);
  for (const child of children.rows) await removeDocumentRows(c, names, Number(child.pk), stats);
}

export async function removeDocumentRows(
  c: PoolClient,
  names: SchemaNames,
  docPk: number,
  stats: KeywordStatsDelta,
): Promise<void> {
  await stats.subtractStored(c, CHUNKS, 'doc_pk = $1', [docPk]);
  await extras.removeExtras(c, docPk, stats);
  for (const { sql_name } of (
    await c.query<{ sql_name: string }>('SELECT sql_name FROM doc_tables WHERE doc_pk = $1', [docPk])
  ).rows) {
    await dropIngestedTable(c, names, sql_name);
  }
  await c.query('DELETE FROM documents WHERE pk = $1', [docPk]);
}

/**
 * Binds the store to `embedder` on its first write and refuses any other afterwards. A bound store's writers
 * share the binding row's lock (so a reindex waits for them); the first writer takes it exclusively.
 */
async function bindEmbedder(c: PoolClient, embedder: EmbedderInfo): Promise<void> {
  const current = await readEmbedder(c);
  const locked = (
    await c.query<{ value: EmbedderInfo | null }>(
      `SELECT value FROM store_meta WHERE key = 'embedder' ${current ? 'FOR SHARE' : 'FOR UPDATE'}`,
    )
  ).rows[0]?.value;
  if (locked) {
    if (locked.id !== embedder.id || locked.dimension !== embedder.dimension)
      throw new EmbedderMismatchError(locked, embedder);
    return;
  }
  await createVectorTable(c, embedder);
}

/**
 * (Re)creates the vector table for `embedder`'s dimension, with the triggers that log its writes, and records the
 * binding. No graph index (migration 28): searches scan each process's int8 codes of the vectors (vector-codes.ts),
 * which a new generation of the log makes every process load again.
 */
export async function createVectorTable(c: PoolClient, embedder: EmbedderInfo): Promise<void> {
  await c.query('DROP TABLE IF EXISTS chunk_vectors');
  await c.query(`CREATE TABLE chunk_vectors (
    chunk_pk bigint PRIMARY KEY REFERENCES chunks(pk) ON DELETE CASCADE,
    embedding vector(${embedder.dimension}) NOT NULL
  )`);
  await c.query(VECTOR_STORAGE);
  await c.query(VECTOR_CODE_COLUMN);
  await c.query(VECTOR_LOG_TRIGGERS);
  await c.query(
    `UPDATE vector_log_state SET generation = md5(random()::text || clock_timestamp()::text), version = version + 1,
       kept_from = version + 2`,
  );
  await c.query('DELETE FROM vector_log');
  await c.query("UPDATE store_meta SET value = $1 WHERE key = 'embedder'", [
    JSON.stringify({ id: embedder.id, dimension: embedder.dimension }),
  ]);
}

export async function readEmbedder(c: PoolClient): Promise<EmbedderInfo | undefined> {
  const value = (await c.query<{ value: EmbedderInfo | null }>("SELECT value FROM store_meta WHERE key = 'embedder'"))
    .rows[0]?.value;
  return value ? { id: value.id, dimension: value.dimension } : undefined;
}

import pgvector from 'pgvector';
import type { DocumentRecord, Role, RowRegion } from '../../domain/index.ts';
import type { ChunkWithSource, UserRecord } from '../store.ts';

/** Rows as the Postgres store selects them, and what they map to. */

export interface DocumentRow {
  doc_id: string;
  source: string;
  title: string;
  type: string;
  content_hash: string;
  bytes: number;
  tags: string[];
  page_count: number | null;
  chunk_count: number;
  acl: string[];
  ingested_at: Date;
  metadata: Record<string, string> | null;
  parent_doc_id: string | null;
}

export const DOCUMENT_COLUMNS =
  'd.doc_id, d.source, d.title, d.type, d.content_hash, d.bytes, d.tags, d.page_count, d.chunk_count, d.acl, d.ingested_at, d.metadata, d.parent_doc_id';

export const toDocumentRecord = (row: DocumentRow): DocumentRecord => ({
  docId: row.doc_id,
  source: row.source,
  title: row.title,
  type: row.type,
  contentHash: row.content_hash,
  bytes: Number(row.bytes),
  acl: row.acl,
  tags: row.tags,
  ...(row.page_count === null ? {} : { pageCount: row.page_count }),
  ...(row.metadata === null ? {} : { metadata: row.metadata }),
  ...(row.parent_doc_id === null ? {} : { parent: row.parent_doc_id }),
  chunkCount: row.chunk_count,
  ingestedAt: row.ingested_at.toISOString(),
});

export interface ChunkRow {
  id: string;
  doc_id: string;
  ordinal: number;
  text: string;
  heading_path: string[];
  page: number | null;
  start_offset: number;
  end_offset: number;
  source: string;
  doc_title: string;
  /** Read where a chunk is opened (getChunks), not by searches. */
  regions?: RowRegion[] | null;
}

export const CHUNK_COLUMNS =
  'c.id, d.doc_id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset, d.source, d.title AS doc_title';

export const toChunkWithSource = (row: ChunkRow): ChunkWithSource => ({
  id: row.id,
  docId: row.doc_id,
  ordinal: row.ordinal,
  text: row.text,
  headingPath: row.heading_path,
  ...(row.page === null ? {} : { page: row.page }),
  startOffset: row.start_offset,
  endOffset: row.end_offset,
  ...(row.regions ? { regions: row.regions } : {}),
  source: row.source,
  title: row.doc_title,
});

export interface UserRow {
  name: string;
  groups: string[];
  roles: Role[];
  active: boolean;
  created_at: Date;
}

/** The columns `toUserRecord` reads. */
export const USER_COLUMNS = 'name, groups, roles, active, created_at';

export const toUserRecord = (row: UserRow): UserRecord => ({
  name: row.name,
  groups: row.groups,
  roles: row.roles,
  active: row.active,
  createdAt: row.created_at.toISOString(),
});

export const vectorLiteral = (vector: Float32Array): string => pgvector.toSql(Array.from(vector)) as string;
export const floatsToBytes = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
export const bytesToFloats = (bytes: Buffer): Float32Array =>
  new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

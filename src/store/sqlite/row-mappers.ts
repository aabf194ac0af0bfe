import type { Chapter, Chunk, ColumnType, DocumentRecord, Role, RowRegion, TableRecord } from '../../domain/index.ts';
import type { ChunkWithSource, UserRecord } from '../store.ts';

/** JSON columns are written only by this store, so their shape is known; this keeps the casts in one place. */
const parseStrings = (json: string): string[] => JSON.parse(json) as string[];

export interface DocumentRow {
  doc_id: string;
  source: string;
  title: string;
  type: string;
  content_hash: string;
  bytes: number;
  tags: string;
  page_count: number | null;
  chunk_count: number;
  ingested_at: string;
  /** JSON object of text values, or null when the document states none. */
  metadata: string | null;
  parent_doc_id: string | null;
  /** JSON array of ACL entries in their original order. */
  acl: string;
}

export const toDocumentRecord = (row: DocumentRow): DocumentRecord => ({
  docId: row.doc_id,
  source: row.source,
  title: row.title,
  type: row.type,
  contentHash: row.content_hash,
  bytes: row.bytes,
  acl: parseStrings(row.acl),
  tags: parseStrings(row.tags),
  ...(row.page_count === null ? {} : { pageCount: row.page_count }),
  ...(row.metadata === null ? {} : { metadata: JSON.parse(row.metadata) as Record<string, string> }),
  ...(row.parent_doc_id === null ? {} : { parent: row.parent_doc_id }),
  chunkCount: row.chunk_count,
  ingestedAt: row.ingested_at,
});

export interface ChunkRow {
  id: string;
  doc_id: string;
  ordinal: number;
  text: string;
  heading_path: string;
  page: number | null;
  start_offset: number;
  end_offset: number;
  source: string;
  doc_title: string;
  /** Read where a chunk is opened (getChunks), not by searches. */
  regions?: string | null;
  /** The stored analysed form, read only when getChunks is asked for it. */
  analysed?: Uint8Array | null;
}

export const toChunkWithSource = (row: ChunkRow): ChunkWithSource => {
  const chunk: Chunk = {
    id: row.id,
    docId: row.doc_id,
    ordinal: row.ordinal,
    text: row.text,
    headingPath: parseStrings(row.heading_path),
    ...(row.page === null ? {} : { page: row.page }),
    startOffset: row.start_offset,
    endOffset: row.end_offset,
    ...(row.regions ? { regions: JSON.parse(row.regions) as RowRegion[] } : {}),
  };
  return { ...chunk, source: row.source, title: row.doc_title, ...(row.analysed ? { analysed: row.analysed } : {}) };
};

export interface ChapterRow {
  ordinal: number;
  title: string;
  heading_path: string;
  start_offset: number;
  end_offset: number;
  page: number | null;
}

export const toChapter = (row: ChapterRow): Chapter => ({
  ordinal: row.ordinal,
  title: row.title,
  headingPath: parseStrings(row.heading_path),
  startOffset: row.start_offset,
  endOffset: row.end_offset,
  ...(row.page === null ? {} : { page: row.page }),
});

export interface TableRow {
  doc_id: string;
  title: string;
  sql_name: string;
  columns: string;
  row_count: number;
  description: string | null;
}

export const toTableRecord = (row: TableRow): TableRecord => ({
  docId: row.doc_id,
  title: row.title,
  sqlName: row.sql_name,
  columns: JSON.parse(row.columns) as { name: string; type: ColumnType }[],
  rowCount: row.row_count,
  ...(row.description ? { description: row.description } : {}),
});

export interface UserRow {
  name: string;
  groups: string;
  roles: string;
  active: number;
  created_at: string;
}

/** The columns `toUserRecord` reads. */
export const USER_COLUMNS = 'name, groups, roles, active, created_at';

export const toUserRecord = (row: UserRow): UserRecord => ({
  name: row.name,
  groups: parseStrings(row.groups),
  roles: parseStrings(row.roles) as Role[],
  active: row.active === 1,
  createdAt: row.created_at,
});

import type {
  ChannelHit,
  Chapter,
  Chunk,
  DocumentRecord,
  Principal,
  TableData,
  TableRecord,
} from '../domain/index.ts';

/** Which embedder built a store's vectors. A store holds vectors of exactly one. */
export interface EmbedderInfo {
  id: string;
  dimension: number;
}

/** Everything one document version consists of; written (or replaced) in one transaction. */
export interface DocumentWrite {
  document: Omit<DocumentRecord, 'chunkCount' | 'ingestedAt'>;
  chunks: Chunk[];
  /** Analysed keyword text per chunk (terms separated by spaces), parallel to `chunks`. */
  keywordText: string[];
  /** One vector per chunk, parallel to `chunks`. */
  vectors: Float32Array[];
  embedder: EmbedderInfo;
  chapters: Chapter[];
  tables: TableData[];
}

export interface UserRecord {
  name: string;
  groups: string[];
  roles: Principal['roles'];
  createdAt: string;
}

/** A chunk joined with its document's source and title, as search results need it. */
export interface ChunkWithSource extends Chunk {
  source: string;
  title: string;
}

export interface StoreStats {
  documents: number;
  chunks: number;
  tables: number;
  users: number;
  embedder: EmbedderInfo | undefined;
}

/**
 * The persistence port. Every read that returns document content takes the principal and filters inside the
 * backend's query, before ranking or counting, so unauthorised text never leaves the store.
 * Backends: `sqlite/` (embedded default) and, later, `postgres/`; both pass `testing/store-conformance.ts`.
 */
export interface Store {
  readonly backend: string;
  /** Where the data lives (file path or database URL without password), for messages. */
  readonly location: string;
  close(): Promise<void>;

  /** Writes a document version, replacing any previous version of the same doc_id, atomically. Refuses vectors of another embedder. */
  putDocument(write: DocumentWrite): Promise<void>;
  /** Metadata only, regardless of principal: for ingestion's change detection and for admins. */
  getDocument(docId: string): Promise<DocumentRecord | undefined>;
  listDocuments(principal: Principal): Promise<DocumentRecord[]>;
  /** Removes a document with its chunks, vectors, chapters and tables. False when there was none. */
  deleteDocument(docId: string): Promise<boolean>;
  listChapters(docId: string, principal: Principal): Promise<Chapter[]>;
  listTables(principal: Principal): Promise<TableRecord[]>;
  getChunks(chunkIds: readonly string[], principal: Principal): Promise<ChunkWithSource[]>;

  /** BM25 over the analysed keyword text. `terms` are analysed query terms; a term ending in `*` is a prefix. */
  keywordSearch(terms: readonly string[], principal: Principal, limit: number): Promise<ChannelHit[]>;
  /** Nearest chunks by cosine similarity (vectors are unit length). */
  vectorSearch(vector: Float32Array, principal: Principal, limit: number): Promise<ChannelHit[]>;

  embedderInfo(): Promise<EmbedderInfo | undefined>;
  /** Every chunk with its document's title, in batches, for `evident reindex` (which rebuilds each chunk's search text). */
  chunkTexts(batchSize: number): AsyncIterable<ChunkWithSource[]>;
  /** Replaces every vector and the embedder binding in one transaction. `vectors` must cover every chunk. */
  replaceVectors(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): Promise<void>;

  /** Embedding cache keyed by (embedder id, content hash). */
  cachedEmbeddings(embedderId: string, contentHashes: readonly string[]): Promise<Map<string, Float32Array>>;
  cacheEmbeddings(embedderId: string, entries: ReadonlyMap<string, Float32Array>): Promise<void>;

  upsertUser(user: { name: string; groups: string[]; roles?: Principal['roles'] }): Promise<UserRecord>;
  getUser(name: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;

  stats(): Promise<StoreStats>;
}

import type {
  ChannelHit,
  Chapter,
  Chunk,
  DocumentRecord,
  Principal,
  TableData,
  TableRecord,
} from '../../domain/index.ts';
import type { DocumentExtras, QuoteHit, SummaryHit, SummaryMethod } from '../document-extras.ts';
import type { SqlDialect } from '../sql-guard.ts';

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
  /**
   * Each chunk's analysed form (`encodeAnalysedForm(chunk.text, keywordText[i])`, text/analysed-form.ts), parallel to
   * `chunks`, when the caller made it (ingestion's workers, for a store that `keepsAnalysedForms`); such a store
   * makes a missing one itself, and reads the chunk's keyword terms from it.
   */
  analysed?: Uint8Array[];
  embedder: EmbedderInfo;
  chapters: Chapter[];
  tables: TableData[];
  /** Chapter summaries and quotes of this version, written in the same transaction. Absent: the version has none yet. */
  extras?: DocumentExtras;
  /**
   * The exact bytes of the file this version was read from, kept with it (uploads only: a folder's files stay in
   * the folder, so a folder ingest does not double the store). Must be `document.bytes` long and hash to
   * `document.contentHash`; replaced with the version and deleted with the document.
   */
  original?: Uint8Array;
}

/** What a stored document version has in extras; `undefined` from the store when it has none. */
export interface DocumentExtrasInfo {
  summaryMethod: SummaryMethod;
  summaries: number;
  quotes: number;
}

/** A chunk joined with its document's source and title, as search results need it. */
export interface ChunkWithSource extends Chunk {
  source: string;
  title: string;
  /**
   * The chunk's stored analysed form (text/analysed-form.ts), only when asked for (`getChunks`'s `analysed`) and
   * the store keeps one: search's dedupe and offline rerank read it instead of the text. Never part of a result.
   */
  analysed?: Uint8Array;
}

/** What getChunks reads beside the chunks. */
export interface GetChunksOptions {
  /** Each chunk's stored analysed form, where the store keeps one (SQLite). */
  analysed?: boolean;
}

/** Bounds of one read-only table query. */
export interface TableQueryLimits {
  /** At most this many rows are returned; `truncated` says whether there were more. */
  maxRows: number;
  /** From sending the query until its rows are read back; then it is stopped and fails with `query_timeout`. */
  timeoutMs: number;
  /** Bytes of the result (column names and values); over it the query is stopped with `query_too_large`. Default: `tables.maxResultBytes`'s. */
  maxResultBytes?: number;
  /** Bytes of any one value; over it: `query_too_large`. Default: `tables.maxValueBytes`'s. */
  maxValueBytes?: number;
  /** Working memory of the query where the backend can bound it (see `tables.maxMemoryBytes`). */
  maxMemoryBytes?: number;
  /** Queries the principal may have waiting or running; this one past it is refused. Default: `tables.maxQueuedPerUser`'s. */
  maxQueuedPerUser?: number;
}

export interface TableQueryResult {
  columns: string[];
  /** One array of cell values per row, in `columns` order. */
  rows: unknown[][];
  truncated: boolean;
}

/**
 * Documents and search: document versions with their chunks, chapters, tables and extras, the keyword and vector
 * channels, and the embedder binding with its vectors and embedding cache. Every read that returns document
 * content takes the principal and filters inside the backend's query, before ranking or counting, so
 * unauthorised text never leaves the store.
 */
export interface DocumentStore {
  /** The SQL dialect `queryTables` accepts (and the table tools must write). */
  readonly sqlDialect: SqlDialect;
  /**
   * How many `putDocuments` calls a writer may keep in flight while it prepares the next batch (0: wait for each).
   * Batches in flight must hold distinct doc_ids; each is still one transaction.
   */
  readonly concurrentDocumentWrites: number;
  /** The store keeps each chunk's analysed form beside it (SQLite): a write may bring the forms (`DocumentWrite.analysed`). */
  readonly keepsAnalysedForms?: boolean;

  /**
   * Writes a document version, replacing any previous version of the same doc_id and the documents found inside it
   * (those whose `parent` it is), atomically. Refuses vectors of another embedder.
   */
  putDocument(write: DocumentWrite): Promise<void>;
  /**
   * Writes several document versions in ONE transaction (ingestion's batches): all of them or none, each replacing
   * its previous version as `putDocument` would. Doc_ids must be distinct within a batch; a write that fails
   * validation or storage fails the whole batch, leaving what is stored untouched. A document found inside another
   * of the batch (`document.parent`) comes after it and has its ACL, so a message and its attachments are one write.
   */
  putDocuments(writes: readonly DocumentWrite[]): Promise<void>;
  /** Metadata only, regardless of principal: for ingestion's change detection and for admins. */
  getDocument(docId: string): Promise<DocumentRecord | undefined>;
  /** The documents the principal may read, by doc_id; `page` bounds a listing (after a doc_id, at most `limit`). */
  listDocuments(principal: Principal, page?: DocumentPage): Promise<DocumentRecord[]>;
  /**
   * Removes a document with its chunks, vectors, chapters, tables, summaries and quotes, and the documents found
   * inside it (its attachments), atomically. False when there was none.
   */
  deleteDocument(docId: string): Promise<boolean>;
  listChapters(docId: string, principal: Principal): Promise<Chapter[]>;
  /**
   * The original file kept with the stored version of `docId` whose content hash is `contentHash` (see
   * `DocumentWrite.original`), if the principal may read the document. Undefined when it may not, when that version
   * is not the stored one or keeps no file, and when the file is over `maxBytes` (then it is not read at all).
   */
  readDocumentFile(
    docId: string,
    contentHash: string,
    principal: Principal,
    maxBytes: number,
  ): Promise<Uint8Array<ArrayBuffer> | undefined>;
  listTables(principal: Principal): Promise<TableRecord[]>;
  /**
   * Runs one read-only SELECT (or WITH … SELECT) over the ingested tables the principal may see, referenced by
   * the `sqlName`s `listTables(principal)` returns. Anything else — another statement, a store table, a table
   * function, another schema or database, a table of a document the principal may not see — fails with
   * `QueryRejectedError` (`query_rejected`) whose text does not depend on whether such a table exists; a query
   * running past `limits.timeoutMs` is stopped and fails with `query_timeout`; one whose result or a value of it
   * goes over the byte bounds is stopped there and fails with `query_too_large`.
   */
  queryTables(sql: string, principal: Principal, limits: TableQueryLimits): Promise<TableQueryResult>;
  /**
   * Starts now what table queries run in, so the first one (with the default bounds) does not wait for it: a caller
   * about to query tables calls it early, while other work goes on. Absent, or nothing to do, on a backend that needs
   * nothing started (PostgreSQL).
   */
  prepareTableQueries?(): void;
  getChunks(chunkIds: readonly string[], principal: Principal, options?: GetChunksOptions): Promise<ChunkWithSource[]>;

  /**
   * Replaces the extras of the stored version of `docId` whose content hash is `contentHash`, atomically (for a
   * version stored before extras existed). False, writing nothing, when no such version is stored.
   */
  putDocumentExtras(docId: string, contentHash: string, extras: DocumentExtras): Promise<boolean>;
  /**
   * Replaces the ACL of the stored version of `docId` whose content hash is `contentHash`, atomically, leaving its
   * chunks, vectors and extras as they are (a sync that sees only a sidecar or front-matter change); the documents
   * found inside it get the same ACL in the same transaction. False, writing nothing, when no such version is stored
   * (it changed meanwhile: the caller re-ingests it instead).
   */
  updateDocumentAcl(docId: string, contentHash: string, acl: readonly string[]): Promise<boolean>;
  /** Metadata only, regardless of principal (ingestion's check): undefined when the version has no extras. */
  documentExtrasInfo(docId: string): Promise<DocumentExtrasInfo | undefined>;
  /** BM25 over the chapter summaries the principal may see (analysed terms, as for `keywordSearch`). */
  searchSummaries(terms: readonly string[], principal: Principal, limit: number): Promise<SummaryHit[]>;
  /** BM25 over the quotes the principal may see. */
  searchQuotes(terms: readonly string[], principal: Principal, limit: number): Promise<QuoteHit[]>;

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
}

/** One page of a document listing: doc_ids after `after` (in code-point order), at most `limit`. */
export interface DocumentPage {
  after?: string;
  limit: number;
  /**
   * Only documents whose metadata holds each of these values (`{ thread: 'root@example.org' }`: the messages of one
   * thread). Keys are snake_case words (`validateMetadataFilter`).
   */
  metadata?: Readonly<Record<string, string>>;
}

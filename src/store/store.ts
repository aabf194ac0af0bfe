import type {
  ChannelHit,
  Chapter,
  Chunk,
  DocumentRecord,
  Principal,
  TableData,
  TableRecord,
} from '../domain/index.ts';
import type { ApiKeyRecord } from './api-key.ts';
import type { DocumentExtras, QuoteHit, SummaryHit, SummaryMethod } from './document-extras.ts';
import type { SqlDialect } from './sql-guard.ts';

export type { ApiKeyRecord } from './api-key.ts';
export type { ChapterSummaryWrite, DocumentExtras, QuoteHit, QuoteWrite, SummaryHit, SummaryMethod } from './document-extras.ts';

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
  /** Chapter summaries and quotes of this version, written in the same transaction. Absent: the version has none yet. */
  extras?: DocumentExtras;
}

/** What a stored document version has in extras; `undefined` from the store when it has none. */
export interface DocumentExtrasInfo {
  summaryMethod: SummaryMethod;
  summaries: number;
  quotes: number;
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

/** Bounds of one read-only table query. */
export interface TableQueryLimits {
  /** At most this many rows are returned; `truncated` says whether there were more. */
  maxRows: number;
  /** The query is stopped after this long and fails with `query_timeout`. */
  timeoutMs: number;
}

export interface TableQueryResult {
  columns: string[];
  /** One array of cell values per row, in `columns` order. */
  rows: unknown[][];
  truncated: boolean;
}

/** A fact a user asked Evident to remember. Memories belong to exactly one user and are never shared. */
export interface MemoryRecord {
  id: string;
  user: string;
  text: string;
  /** Where it came from (e.g. `thread:<id>`), for the user's own review. */
  source?: string;
  createdAt: string;
}

export interface MemoryHit extends MemoryRecord {
  /** Cosine similarity to the query vector. */
  score: number;
}

export interface MemoryWrite {
  user: string;
  text: string;
  vector: Float32Array;
  source?: string;
  /**
   * Makes the write happen at most once per (user, key): a second write with the same key returns the first
   * memory with `created: false`. The agent passes run id + tool call id, so a replayed approval cannot save twice.
   */
  idempotencyKey?: string;
}

export interface StoreStats {
  documents: number;
  chunks: number;
  tables: number;
  users: number;
  embedder: EmbedderInfo | undefined;
}

/**
 * A run's state in the store: `running` until finished; `interrupted` when it waits for an approval; `cancelled`
 * when a client stopped it.
 */
export type RunRecordStatus = 'running' | 'answered' | 'refused' | 'failed' | 'interrupted' | 'cancelled';

export const isRunFinished = (status: RunRecordStatus): boolean => status !== 'running';

/**
 * A `running` run that has shown no sign of life (its start, a stored event) for this long no longer blocks its
 * thread: its process most likely died without recording the end.
 */
export const RUN_STALE_AFTER_MS = 10 * 60_000;

/** What starting a run records. A run on a new thread creates the thread, owned by `user`. */
export interface RunStart {
  runId: string;
  threadId: string;
  /** Which agent graph ran (`rag`, …). */
  agent: string;
  user: string;
  question: string;
}

export interface RunRecord extends RunStart {
  status: RunRecordStatus;
  /** A client asked to cancel the run; the process executing it stops it (it may be another process). */
  cancelRequested?: true;
  error?: string;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
}

/** A thread: one owner, and the agent its first run bound it to (null before any run). */
export interface ThreadRecord {
  threadId: string;
  agent: string | null;
  owner: string;
  /** The client's own key/values (JSON), kept verbatim. */
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** One of a user's threads, as a list shows it. */
export interface ThreadSummary extends Omit<ThreadRecord, 'owner'> {
  /** The question of the thread's latest run ('' before any run). */
  lastQuestion: string;
  /** The status of the thread's latest run; absent before any run. */
  lastStatus?: RunRecordStatus;
  runCount: number;
}

/** One event of a run's stream, as stored: `seq` counts from 1 within the run and is the SSE event id. */
export interface RunEventRecord {
  runId: string;
  seq: number;
  event: string;
  data: unknown;
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
  /** The SQL dialect `queryTables` accepts (and the table tools must write). */
  readonly sqlDialect: SqlDialect;
  close(): Promise<void>;

  /** Writes a document version, replacing any previous version of the same doc_id, atomically. Refuses vectors of another embedder. */
  putDocument(write: DocumentWrite): Promise<void>;
  /** Metadata only, regardless of principal: for ingestion's change detection and for admins. */
  getDocument(docId: string): Promise<DocumentRecord | undefined>;
  listDocuments(principal: Principal): Promise<DocumentRecord[]>;
  /** Removes a document with its chunks, vectors, chapters, tables, summaries and quotes. False when there was none. */
  deleteDocument(docId: string): Promise<boolean>;
  listChapters(docId: string, principal: Principal): Promise<Chapter[]>;
  listTables(principal: Principal): Promise<TableRecord[]>;
  /**
   * Runs one read-only SELECT (or WITH … SELECT) over the ingested tables the principal may see, referenced by
   * the `sqlName`s `listTables(principal)` returns. Anything else — another statement, a store table, a table
   * function, another schema or database, a table of a document the principal may not see — fails with
   * `QueryRejectedError` (`query_rejected`) whose text does not depend on whether such a table exists; a query
   * running past `limits.timeoutMs` is stopped and fails with `query_timeout`.
   */
  queryTables(sql: string, principal: Principal, limits: TableQueryLimits): Promise<TableQueryResult>;
  getChunks(chunkIds: readonly string[], principal: Principal): Promise<ChunkWithSource[]>;

  /**
   * Replaces the extras of the stored version of `docId` whose content hash is `contentHash`, atomically (for a
   * version stored before extras existed). False, writing nothing, when no such version is stored.
   */
  putDocumentExtras(docId: string, contentHash: string, extras: DocumentExtras): Promise<boolean>;
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

  upsertUser(user: { name: string; groups: string[]; roles?: Principal['roles'] }): Promise<UserRecord>;
  getUser(name: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;

  /** A new API key for an existing user (`not_found` otherwise). The key is returned once; only its hash is stored. */
  createApiKey(user: string): Promise<{ key: string; id: string }>;
  /** The principal whose key this is, with the user's current groups and roles; undefined for an unknown or revoked key. */
  principalForApiKey(key: string): Promise<Principal | undefined>;
  /** The user's keys (ids and dates, never the keys), in creation order. */
  listApiKeys(user: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key at once. False when there was no key with that id. */
  revokeApiKey(id: string): Promise<boolean>;

  /** Long-term memory. Every call is scoped to one user inside the query: another user's memory is never read. */
  addMemory(memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }>;
  /** The user's memories nearest to `vector` by cosine similarity, best first; rows of another dimension are skipped. */
  searchMemories(user: string, vector: Float32Array, limit: number): Promise<MemoryHit[]>;
  /** The user's memories, oldest first. */
  listMemories(user: string): Promise<MemoryRecord[]>;
  /** Deletes one of the user's memories. False when the user has no memory with that id (whoever else may). */
  deleteMemory(user: string, id: string): Promise<boolean>;

  /**
   * Records a run as `running`; a new thread is created owned by `run.user`. A thread owned by another user is
   * refused with `ThreadForbiddenError`, so a run can never join someone else's thread. A thread with a run still
   * `running` (active within `RUN_STALE_AFTER_MS`) is refused with `thread_busy`, atomically with the insert: two
   * processes sharing the store cannot run one thread at once (nor both resume one approval).
   */
  startRun(run: RunStart): Promise<RunRecord>;
  /** Settles a run's status, finish time and duration. Fails with `not_found` for an unknown run. */
  finishRun(runId: string, outcome: { status: RunRecordStatus; error?: string }): Promise<RunRecord>;
  /** The thread's runs, oldest first; empty unless `user` owns the thread. */
  listRuns(threadId: string, user: string): Promise<RunRecord[]>;
  /** The threads `user` owns, most recently updated first. */
  listThreads(user: string): Promise<ThreadSummary[]>;
  /** Creates an empty thread owned by `owner`; an existing id fails with `thread_exists`. */
  createThread(thread: { threadId: string; owner: string; metadata?: Record<string, unknown> }): Promise<ThreadRecord>;
  /** A thread whoever owns it: callers decide who may see it (the owner, or an admin approving its action). */
  getThread(threadId: string): Promise<ThreadRecord | undefined>;
  /** Deletes the owner's thread with its runs and their events. False when `owner` has no such thread. */
  deleteThread(threadId: string, owner: string): Promise<boolean>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * Flags a running run for cancellation, for whichever process executes it (it polls the flag). True when the run
   * was running; false when it has ended or does not exist.
   */
  requestRunCancel(runId: string): Promise<boolean>;
  /**
   * Appends events to a run's log with the given sequence numbers, in one transaction. A sequence number the run
   * already has fails (`run_event_conflict`): two writers of one run's log are a bug, never merged silently.
   */
  appendRunEvents(events: readonly RunEventRecord[]): Promise<void>;
  /** The run's events after `afterSeq`, in order (at most `limit`). */
  listRunEvents(runId: string, afterSeq: number, limit?: number): Promise<RunEventRecord[]>;

  stats(): Promise<StoreStats>;
}

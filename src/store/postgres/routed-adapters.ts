import type { AssistantStore } from '../ports/assistant-store.ts';
import { USERS_ROOT } from '../item-rules.ts';
import type { AuditLog } from '../ports/audit-log.ts';
import type { CronStore } from '../ports/cron-store.ts';
import type { DirectoryStore } from '../ports/directory-store.ts';
import type { DocumentStore } from '../ports/document-store.ts';
import type { FeedbackStore } from '../ports/feedback-store.ts';
import type { MemoryStore } from '../ports/memory-store.ts';
import type { PrincipalStore } from '../ports/principal-store.ts';
import type { RunLog } from '../ports/run-log.ts';
import type { RunWebhookLog } from '../ports/run-webhook-log.ts';
import type { SessionStore } from '../ports/session-store.ts';
import { postgresAssistantStore } from './assistant-store.ts';
import { postgresAuditLog } from './audit-log.ts';
import { postgresCronStore } from './cron-store.ts';
import { postgresDirectoryStore } from './directory-store.ts';
import { postgresDocumentStore } from './document-store.ts';
import { postgresFeedbackStore } from './feedback-store.ts';
import { postgresMemoryStore } from './memory-store.ts';
import type { PostgresPool } from './pool.ts';
import { postgresPrincipalStore } from './principal-store.ts';
import { postgresRunLog } from './run-log.ts';
import { postgresRunWebhookLog } from './run-webhook-log.ts';
import { postgresSessionStore } from './session-store.ts';
import type { ReadReplicas } from './read-replicas.ts';

export type PostgresAdapters = DocumentStore &
  PrincipalStore &
  DirectoryStore &
  MemoryStore &
  RunLog &
  AuditLog &
  FeedbackStore &
  AssistantStore &
  CronStore &
  RunWebhookLog &
  SessionStore;

/** The scopes a client reads its own writes in: the documents, one user's memories, one thread, one user's threads. */
const DOCUMENTS = 'documents';
const memoriesOf = (user: string) => `memories:${user}`;
const personalScope = (namespace: readonly string[]) =>
  namespace[0] === USERS_ROOT && namespace[1] !== undefined ? [memoriesOf(namespace[1])] : [];
const thread = (threadId: string) => `thread:${threadId}`;
const threadsOf = (user: string) => `threads:${user}`;
const AUDIT = 'audit';

/** The store's port adapters on one pool: every statement on the primary. */
export const primaryAdapters = (pool: PostgresPool): PostgresAdapters => ({
  ...postgresDocumentStore(pool),
  ...postgresPrincipalStore(pool),
  // The directory stays on the primary with the principals: it decides who may act, read at the moment of use.
  ...postgresDirectoryStore(pool),
  ...postgresMemoryStore(pool),
  ...postgresRunLog(pool),
  // Webhooks stay on the primary: attempts are claimed by compare-and-set, and their state is read back at once.
  ...postgresRunWebhookLog(pool),
  ...postgresAuditLog(pool),
  // Feedback stays on the primary: a rater reads back their own rating at once, and an admin's list is small.
  ...postgresFeedbackStore(pool),
  // Assistants stay on the primary: who may read and run one is decided at the moment of use.
  ...postgresAssistantStore(pool),
  // Crons stay on the primary: schedulers claim ticks by compare-and-set, and owners read back their own changes.
  ...postgresCronStore(pool),
  // Sessions stay on the primary: a revoked or expired session must stop working at once.
  ...postgresSessionStore(pool),
});

/**
 * The port adapters with retrieval, listing and history reads on the standbys and everything else on the primary.
 * On the primary stay: every write; runs, events, leases and cancellation (the run engine decides by them);
 * principals and API keys (permissions are resolved fresh at the moment of use, never from a lagging copy); and
 * the reads ingestion and reindexing decide by (a document's hash, the embedding cache, the chunk scan). Each write
 * records the primary's WAL position for the scopes it touches, so the next read of those scopes waits for a
 * standby to replay it or runs on the primary.
 */
export function routedAdapters(pool: PostgresPool, replicas: ReadReplicas): PostgresAdapters {
  const primary = primaryAdapters(pool);
  const documents = postgresDocumentStore(replicas.reader(DOCUMENTS, { aclBound: true }));
  const memories = (user: string) => postgresMemoryStore(replicas.reader(memoriesOf(user)));
  const runsOf = (scope: string) => postgresRunLog(replicas.reader(scope));
  const after = async <T>(write: Promise<T>, scopes: (result: T) => readonly string[]): Promise<T> => {
    const result = await write;
    const touched = scopes(result);
    if (touched.length > 0) await replicas.wrote(touched);
    return result;
  };
  const runScopes = (run: { threadId: string; user: string } | undefined) =>
    run ? [thread(run.threadId), threadsOf(run.user)] : [];

  return {
    ...primary,
    // Retrieval and listing of documents, chapters, tables and original files, on a standby that has this process's document writes.
    listDocuments: documents.listDocuments,
    listChapters: documents.listChapters,
    readDocumentFile: documents.readDocumentFile,
    listTables: documents.listTables,
    // A table query runs as a role made for it (table-roles.ts), which only the primary can create; it reads the
    // principal's tables as they are now, never from a lagging standby.
    queryTables: primary.queryTables,
    getChunks: documents.getChunks,
    searchSummaries: documents.searchSummaries,
    searchQuotes: documents.searchQuotes,
    keywordSearch: documents.keywordSearch,
    vectorSearch: documents.vectorSearch,
    embedderInfo: documents.embedderInfo,
    putDocument: (write) => after(primary.putDocument(write), () => [DOCUMENTS]),
    putDocuments: (writes) => after(primary.putDocuments(writes), () => (writes.length > 0 ? [DOCUMENTS] : [])),
    deleteDocument: (docId) => after(primary.deleteDocument(docId), (deleted) => (deleted ? [DOCUMENTS] : [])),
    updateDocumentAcl: (docId, hash, acl) =>
      after(primary.updateDocumentAcl(docId, hash, acl), (written) => (written ? [DOCUMENTS] : [])),
    putDocumentExtras: (docId, hash, extras) =>
      after(primary.putDocumentExtras(docId, hash, extras), (written) => (written ? [DOCUMENTS] : [])),
    replaceVectors: (embedder, vectors) => after(primary.replaceVectors(embedder, vectors), () => [DOCUMENTS]),

    searchMemories: (user, query, limit) => memories(user).searchMemories(user, query, limit),
    listMemories: (user) => memories(user).listMemories(user),
    addMemory: (memory) =>
      after(primary.addMemory(memory), ({ created }) => (created ? [memoriesOf(memory.user)] : [])),
    deleteMemory: (user, id) => after(primary.deleteMemory(user, id), (deleted) => (deleted ? [memoriesOf(user)] : [])),
    // Store API items read and write on the primary (a shared namespace's ACL is read as it is now); an item of a
    // user's own namespace is one of their memories, so its writes mark that user's memories as written.
    putItem: (principal, item) => after(primary.putItem(principal, item), () => personalScope(item.namespace)),
    deleteItem: (principal, namespace, key) =>
      after(primary.deleteItem(principal, namespace, key), (outcome) =>
        outcome === 'deleted' ? personalScope(namespace) : [],
      ),

    // A thread's history and a user's thread list; the writes that change what they show record their scopes.
    listRuns: (threadId, user) => runsOf(thread(threadId)).listRuns(threadId, user),
    listThreads: (user) => runsOf(threadsOf(user)).listThreads(user),
    startRun: (run) => after(primary.startRun(run), runScopes),
    finishRun: (runId, outcome) => after(primary.finishRun(runId, outcome), runScopes),
    claimOrphanedRun: (runId, lease) => after(primary.claimOrphanedRun(runId, lease), runScopes),
    enqueueRun: (run) => after(primary.enqueueRun(run), runScopes),
    claimPendingRun: (runId, lease) =>
      after(primary.claimPendingRun(runId, lease), (claimed) => runScopes(claimed?.run)),
    cancelPendingRun: (runId) => after(primary.cancelPendingRun(runId), runScopes),
    deleteRun: async (runId) => {
      const run = await primary.getRun(runId);
      return after(primary.deleteRun(runId), (deleted) => (deleted ? runScopes(run) : []));
    },
    createThread: (created) =>
      after(primary.createThread(created), (record) => [thread(record.threadId), threadsOf(record.owner)]),
    setThreadMetadata: (threadId, owner, metadata) =>
      after(primary.setThreadMetadata(threadId, owner, metadata), (record) =>
        record ? [thread(threadId), threadsOf(owner)] : [],
      ),
    deleteThread: (threadId, owner) =>
      after(primary.deleteThread(threadId, owner), (deleted) => (deleted ? [thread(threadId), threadsOf(owner)] : [])),
    // The audit log is read by admins on a standby that has this process's appends; appends go to the primary.
    listAudit: (query) => postgresAuditLog(replicas.reader(AUDIT)).listAudit(query),
    appendAudit: (entry) => after(primary.appendAudit(entry), () => [AUDIT]),
    requestRunCancel: async (runId) => {
      const requested = await primary.requestRunCancel(runId);
      if (requested) await after(primary.getRun(runId), runScopes);
      return requested;
    },
  };
}

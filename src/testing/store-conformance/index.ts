import { describe } from 'vitest';
import { describeAssistantStore } from './assistant-store.spec.ts';
import { describeAuditLog } from './audit-log.spec.ts';
import { describeBatchWrites } from './batch-writes.spec.ts';
import { describeCheckpointStore } from './checkpoint-store.spec.ts';
import { describeCronStore } from './cron-store.spec.ts';
import { describeDirectoryStore } from './directory-store.spec.ts';
import { describeDocumentAccess } from './document-access.spec.ts';
import { describeDocumentAcl } from './document-acl.spec.ts';
import { describeDocumentExtras } from './document-extras.spec.ts';
import { describeDocumentFiles } from './document-files.spec.ts';
import { describeDocumentParent } from './document-parent.spec.ts';
import { describeDocuments } from './documents.spec.ts';
import { describeEmbedder } from './embedder.spec.ts';
import { describeFeedbackStore } from './feedback-store.spec.ts';
import { describeKeywordSearch } from './keyword-search.spec.ts';
import { describeMemoryStore } from './memory-store.spec.ts';
import { describeStoreItems } from './store-items.spec.ts';
import { describePrincipalStore } from './principal-store.spec.ts';
import { describeRunLog } from './run-log.spec.ts';
import { describeRunLogLeases } from './run-log-lease.spec.ts';
import { describeRunWebhooks } from './run-webhooks.spec.ts';
import { describeRunQueue } from './run-queue.spec.ts';
import { describePersistence } from './store.spec.ts';
import { describeSessionStore } from './session-store.spec.ts';
import { ConformanceSuite, type OpenStore } from './suite.ts';
import { describeTableQueries } from './table-queries.spec.ts';
import { describeTableQueryBounds } from './table-query-bounds.spec.ts';
import { describeTables } from './tables.spec.ts';
import { describeVectorSearch } from './vector-search.spec.ts';

export type { OpenStore } from './suite.ts';

/**
 * The behaviour every `Store` backend must show, one spec file per port (the document port, being the largest, one
 * per concern). Uses the ports only, so every backend runs it unchanged: a Postgres store passes exactly the tests
 * the SQLite store passes.
 */
export function describeStoreConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}`, () => {
    const suite = new ConformanceSuite(open);

    // DocumentStore
    describeDocuments(suite);
    describeBatchWrites(suite);
    describeDocumentAccess(suite);
    describeDocumentAcl(suite);
    describeDocumentExtras(suite);
    describeDocumentFiles(suite);
    describeDocumentParent(suite);
    describeKeywordSearch(suite);
    describeVectorSearch(suite);
    describeEmbedder(suite);
    describeTables(suite);
    describeTableQueries(suite);
    describeTableQueryBounds(suite);
    // PrincipalStore, MemoryStore, RunLog, CheckpointStore
    describePrincipalStore(suite);
    describeDirectoryStore(suite);
    describeSessionStore(suite);
    describeMemoryStore(suite);
    describeStoreItems(suite);
    describeRunLog(suite);
    describeRunLogLeases(suite);
    describeRunWebhooks(suite);
    describeRunQueue(suite);
    describeCheckpointStore(suite);
    // CronStore
    describeCronStore(suite);
    // AssistantStore
    describeAssistantStore(suite);
    // AuditLog
    describeAuditLog(suite);
    // FeedbackStore
    describeFeedbackStore(suite);
    // Store
    describePersistence(suite);
  });
}

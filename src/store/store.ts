import type { AssistantStore } from './ports/assistant-store.ts';
import type { AuditLog } from './ports/audit-log.ts';
import type { CheckpointStore } from './ports/checkpoint-store.ts';
import type { CronStore } from './ports/cron-store.ts';
import type { DirectoryStore } from './ports/directory-store.ts';
import type { DocumentStore, EmbedderInfo } from './ports/document-store.ts';
import type { FeedbackStore } from './ports/feedback-store.ts';
import type { MemoryStore } from './ports/memory-store.ts';
import type { PrincipalStore } from './ports/principal-store.ts';
import type { RunLog } from './ports/run-log.ts';
import type { SessionStore } from './ports/session-store.ts';
export type {
  RunWebhookLog,
  RunWebhookRecord,
  RunWebhookWrite,
  WebhookAttemptOutcome,
  WebhookClaim,
  WebhookDeliveryState,
} from './ports/run-webhook-log.ts';
import type { RunWebhookLog } from './ports/run-webhook-log.ts';

export type { ApiKeyRecord } from './api-key.ts';
export {
  ASSISTANT_SORT_FIELDS,
  MAX_ASSISTANT_PAGE,
  MAX_ASSISTANT_VERSIONS,
  mayReadAssistant,
  type AssistantFilter,
  type AssistantQuery,
  type AssistantReader,
  type AssistantRecord,
  type AssistantSortField,
  type AssistantStore,
  type AssistantVersionRecord,
  type AssistantWrite,
} from './ports/assistant-store.ts';
export {
  AUDIT_ACTIONS,
  AUDIT_SURFACES,
  MAX_AUDIT_PAGE,
  type AuditAction,
  type AuditDecision,
  type AuditEntry,
  type AuditEntryWrite,
  type AuditLog,
  type AuditQuery,
  type AuditSurface,
} from './ports/audit-log.ts';
export type {
  ChapterSummaryWrite,
  DocumentExtras,
  QuoteHit,
  QuoteWrite,
  SummaryHit,
  SummaryMethod,
} from './document-extras.ts';
export {
  deletesRunCheckpoints,
  type Checkpointer,
  type CheckpointStore,
  type RunCheckpointDeletion,
} from './ports/checkpoint-store.ts';
export {
  CRON_SORT_FIELDS,
  type CronCreate,
  type CronPatch,
  type CronQuery,
  type CronRecord,
  type CronSortField,
  type CronStore,
  type CronThreadPolicy,
  type CronTickOutcome,
  type CronTickRecord,
  type CronTickStatus,
} from './ports/cron-store.ts';
export type {
  ChunkWithSource,
  DocumentExtrasInfo,
  DocumentStore,
  DocumentWrite,
  EmbedderInfo,
  TableQueryLimits,
  TableQueryResult,
} from './ports/document-store.ts';
export {
  FEEDBACK_BOUNDS,
  FEEDBACK_RATINGS,
  FEEDBACK_REASONS,
  MAX_FEEDBACK_PAGE,
  type FeedbackCounts,
  type FeedbackQuery,
  type FeedbackRating,
  type FeedbackReason,
  type FeedbackRecord,
  type FeedbackStore,
  type FeedbackWrite,
} from './ports/feedback-store.ts';
export type {
  ItemDeleteOutcome,
  ItemSearch,
  ItemWrite,
  MemoryHit,
  MemoryQuery,
  MemoryRecord,
  MemoryStore,
  MemoryWrite,
  NamespaceAcl,
  NamespaceListing,
  StoreItem,
  StoreItemHit,
} from './ports/memory-store.ts';
export type { PrincipalStore, UserRecord } from './ports/principal-store.ts';
export type {
  DirectoryGroup,
  DirectoryGroupMatch,
  DirectoryGroupPatch,
  DirectoryMember,
  DirectoryStore,
  DirectoryUser,
  DirectoryUserMatch,
  DirectoryUserPatch,
} from './ports/directory-store.ts';
export { MAX_EXTERNAL_ID_CHARS, MAX_MEMBERS_PER_CHANGE } from './directory-rules.ts';
export {
  SIGN_IN_METHODS,
  type SessionCreate,
  type SessionQuery,
  type SessionRecord,
  type SessionStore,
  type SignInMethod,
  type SignInState,
} from './ports/session-store.ts';
export { MAX_SESSION_PAGE } from './session-rules.ts';
export {
  isRunFinished,
  MULTITASK_STRATEGIES,
  type ClaimedRun,
  type MultitaskStrategy,
  type RunEnqueue,
  type RunEventRecord,
  type RunLease,
  type RunLog,
  type RunOutcome,
  type RunRecord,
  type RunRecordStatus,
  type RunStart,
  type ThreadCreate,
  type ThreadRecord,
  type ThreadSummary,
} from './ports/run-log.ts';

export interface StoreStats {
  documents: number;
  chunks: number;
  tables: number;
  users: number;
  embedder: EmbedderInfo | undefined;
}

/**
 * The persistence port: the composition of the focused ports (`ports/`), plus what concerns the store as a whole.
 * Code that needs one concern takes that port alone (a `RunLog`, a `MemoryStore`, …). Backends: `sqlite/`
 * (embedded default) and `postgres/`; both pass `testing/store-conformance/`.
 */
export interface Store
  extends DocumentStore,
    PrincipalStore,
    DirectoryStore,
    MemoryStore,
    RunLog,
    CheckpointStore,
    AuditLog,
    FeedbackStore,
    AssistantStore,
    CronStore,
    RunWebhookLog,
    SessionStore {
  readonly backend: string;
  /** Where the data lives (file path or database URL without password), for messages. */
  readonly location: string;
  close(): Promise<void>;
  stats(): Promise<StoreStats>;
}

// The public API of the `evident` package: what is listed here is supported and versioned (CHANGELOG.md); anything
// reached by a deeper path is internal. Framework adapters are the subpaths `evident/langchain` and `evident/ai-sdk`.

// The composition root: one Evident (store, models, search, ingestion, agents) built from a config.
export { createEvident, type CreateEvidentOptions, type Evident } from './evident.ts';

// Configuration: flags > environment > evident.config.json, validated; the resolved config and its parts.
export {
  CONFIG_FILE,
  loadConfig,
  type AgentsConfig,
  type ConfigInput,
  type EvidentConfig,
  type IngestConfig,
  type LimitName,
  type LimitsConfig,
  type LoadConfigOptions,
  type RetrievalSettings,
  type TablesConfig,
} from './config/index.ts';

// Principals: who searches or asks (id, groups, roles), the local operator who owns the store, and ACLs.
export {
  ADMIN_KEY_PRINCIPAL,
  isAdmin,
  LOCAL_OPERATOR,
  type Principal,
  type Role,
} from './domain/principal.ts';

// The answer contract: a cited answer or a refusal that says what is missing, and how citations are checked.
export {
  answerSchema,
  citationSchema,
  REFUSAL_TEXT,
  type Answer,
  type Citation,
  type CitableEvidence,
  type CitationCheck,
  type DroppedCitationReason,
} from './domain/answer.ts';

// Evidence and search results: what retrieval returns and what an answer may cite.
export type { Answerability, Candidate, Evidence } from './domain/evidence.ts';
export type { ChannelHit, ChannelName, SearchResult } from './domain/search.ts';
export type { Block, Chunk, DocumentRecord, LoadedDocument, TableRecord } from './domain/document.ts';

// A run of an agent: its result, its steps and the events streamed while it runs, and approvals it waits for.
export type { AgentRunResult } from './domain/run-result.ts';
export type { RunError, Step, ToolCallRecord } from './domain/step.ts';
export type { StepEvent } from './domain/step-event.ts';
export type { ApprovalDecision, PendingAction } from './domain/approval.ts';
export type { ChatMessage } from './domain/chat-message.ts';
export type { RunStatus } from './domain/run-state.ts';

// Errors: one base class with a stable code and a category (user, system, upstream), its subclasses and guards.
export {
  ClientClosedError,
  ConfigError,
  DecisionForbiddenError,
  DocumentFileUnavailableError,
  EmbedderMismatchError,
  EmptyAclError,
  ERROR_CODES,
  EvidentError,
  ForbiddenError,
  IngestError,
  IngestLimitError,
  InputTooLargeError,
  isErrorCode,
  isEvidentError,
  ModelNotFoundError,
  NoPendingApprovalError,
  NotFoundError,
  PayloadTooLargeError,
  ProviderError,
  publicErrorOf,
  QueryRejectedError,
  QueryTooLargeError,
  RemoteError,
  RouteNotFoundError,
  RunEventConflictError,
  RunFailedError,
  RunLeaseLostError,
  RunNotRunningError,
  RunOrphanedError,
  ServerUnreachableError,
  SourceError,
  StoreError,
  StructuredOutputError,
  ThreadAgentMismatchError,
  ThreadBusyError,
  ThreadExistsError,
  ThreadForbiddenError,
  ThreadInterruptedError,
  TooManyRunsError,
  UnauthorizedError,
  UnknownAgentError,
  ValidationError,
  type ErrorCategory,
  type ErrorCode,
  type EvidentErrorOptions,
  type PublicError,
} from './errors/index.ts';

// Models an application brings: a chat model, an embedder, a reranker; and the logger Evident writes to.
export type { ChatModel } from './models/chat/chat-model.ts';
export type { Embedder } from './models/embedder.ts';
export type { RerankCandidate, Reranker } from './models/reranker.ts';
export type { Logger, LogLevel } from './logging/logger.ts';

// Agents: the built-in ones (rag, react, controllable), defining one of your own, and the runtime that runs them.
export { AGENTS, openAgentRuntime, type AgentRuntime, type AgentRuntimeOptions } from './agent/agent-runtime.ts';
export type { AgentContext, AgentFactory } from './agent/agent-context.ts';
export type { AgentServices, AgentStore } from './agent/agent-services.ts';
export { defineAgent } from './runs/define-agent.ts';
export type { AgentDefinition, AgentGraph } from './runs/agent-definition.ts';
export type { RunAction, RunRequest } from './runs/run-request.ts';
export type { RunManager } from './runs/run-manager.ts';
export type { ApprovalPolicy, Approver } from './runs/policy/approval-policy.ts';
// Run webhooks: what a receiver checks a delivery with (the `X-Evident-Signature` header, HMAC-SHA256).
export {
  verifyWebhookSignature,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type VerifyWebhookSignatureInput,
} from './runs/webhooks/webhook-signature.ts';

// The HTTP API as a Hono app to mount, or a server to start.
export { createApp, type AppDeps } from './server/create-app.ts';
export { startServer, type RunningServer, type StartServerOptions } from './server/start-server.ts';

// A search recorded in the audit log, as every surface of Evident searches.
export { auditedSearch, type AuditedSearchInput } from './audit/audited-search.ts';

// Sources: the connector port, the folder and web sources, the sync engine and the folder watcher.
export type { Connector, ConnectorItem, ConnectorPage, FetchResult, StoredDocument } from './sources/connector.ts';
export {
  syncSource,
  type SyncDeps,
  type SyncOptions,
  type SyncOutcome,
  type SyncReport,
} from './sources/sync-source.ts';
export { FolderSource, type FolderSourceOptions } from './sources/folder-source.ts';
export { WebSource, type WebBounds, type WebSourceOptions } from './sources/web/web-source.ts';
export { PageValidatorCache } from './sources/web/page-validators.ts';
export { FolderWatcher, type WatchOptions } from './sources/folder-watcher.ts';

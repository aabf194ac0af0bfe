export * from './domain/index.ts';
export * from './errors/index.ts';
export * from './config/index.ts';
export type {
  Store,
  DocumentStore,
  PrincipalStore,
  MemoryStore,
  RunLog,
  CheckpointStore,
  Checkpointer,
  DocumentWrite,
  EmbedderInfo,
  UserRecord,
  ChunkWithSource,
  StoreStats,
} from './store/store.ts';
export type { Embedder } from './models/embedder.ts';
export type { Reranker, RerankCandidate } from './models/reranker.ts';
export type { Logger, LogLevel } from './logging/logger.ts';
export { createEvident, type Evident, type CreateEvidentOptions } from './evident.ts';
export type { ChatModel } from './models/chat/chat-model.ts';
export { AGENTS, openAgentRuntime, type AgentRuntime, type AgentRuntimeOptions } from './agent/agent-runtime.ts';
export type { AgentContext, AgentFactory } from './agent/agent-context.ts';
export type { AgentRunResult } from './domain/run-result.ts';
export type { RunAction, RunRequest } from './runs/run-request.ts';
export type { AgentDefinition, AgentGraph } from './runs/agent-definition.ts';
export { defineAgent } from './runs/define-agent.ts';
export type { RunManager } from './runs/run-manager.ts';
export type { ApprovalPolicy, Approver } from './runs/policy/approval-policy.ts';
export { createApp, type AppDeps } from './server/create-app.ts';
export { startServer, type RunningServer, type StartServerOptions } from './server/start-server.ts';
export type { AuditAction, AuditEntry, AuditEntryWrite, AuditLog, AuditQuery, AuditSurface } from './store/store.ts';
export { auditedSearch, type AuditedSearchInput } from './audit/audited-search.ts';
export type { Connector, ConnectorItem, ConnectorPage, FetchResult, StoredDocument } from './sources/connector.ts';
export {
  syncSource,
  type SyncDeps,
  type SyncOptions,
  type SyncOutcome,
  type SyncReport,
} from './sources/sync-source.ts';
export { FolderSource, type FolderSourceOptions } from './sources/folder-source.ts';
export { WebSource, type WebSourceOptions, type WebBounds } from './sources/web/web-source.ts';
export { PageValidatorCache } from './sources/web/page-validators.ts';
export { FolderWatcher, type WatchOptions } from './sources/folder-watcher.ts';

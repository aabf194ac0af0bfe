export * from './domain/index.ts';
export * from './errors/index.ts';
export * from './config/index.ts';
export type { Store, DocumentWrite, EmbedderInfo, UserRecord, ChunkWithSource, StoreStats } from './store/store.ts';
export type { Embedder } from './models/embedder.ts';
export type { Reranker, RerankCandidate } from './models/reranker.ts';
export type { Logger, LogLevel } from './logging/logger.ts';

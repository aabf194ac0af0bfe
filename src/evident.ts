import { resolveRetrievalSettings, type EvidentConfig, type RetrievalSettings } from './config/index.ts';
import type { Principal } from './domain/index.ts';
import { EmbedderMismatchError, NotFoundError } from './errors/index.ts';
import { Ingestor } from './ingest/ingestor.ts';
import { silentLogger, type Logger } from './logging/logger.ts';
import { createEmbedder } from './models/create-embedder.ts';
import { createReranker } from './models/create-reranker.ts';
import type { Embedder } from './models/embedder.ts';
import type { Reranker } from './models/reranker.ts';
import { HybridSearch } from './retrieval/hybrid-search.ts';
import { reindex, type ReindexProgress } from './retrieval/reindex.ts';
import { openStore } from './store/open-store.ts';
import type { Store } from './store/store.ts';

/** The service graph every front end (CLI, server, eval) works through. */
export interface Evident {
  readonly config: EvidentConfig;
  /** Retrieval settings with the embedder-dependent defaults resolved: what `search` uses. */
  readonly retrieval: RetrievalSettings;
  readonly store: Store;
  readonly embedder: Embedder;
  readonly reranker: Reranker | undefined;
  readonly ingestor: Ingestor;
  readonly search: HybridSearch;
  /** Throws EmbedderMismatchError when the store's vectors came from another embedder. */
  assertEmbedderMatches(): Promise<void>;
  /** The principal of a stored user, with the groups the store records for them. */
  principalFor(userName: string): Promise<Principal>;
  reindex(onProgress?: (progress: ReindexProgress) => void): Promise<{ chunks: number }>;
  close(): Promise<void>;
}

export interface CreateEvidentOptions {
  logger?: Logger;
  /** Use this store instead of opening the configured one (tests, eval runs on a scratch store). */
  store?: Store;
}

/** The composition root: builds the store, models and services from config. */
export async function createEvident(config: EvidentConfig, options: CreateEvidentOptions = {}): Promise<Evident> {
  const logger = options.logger ?? silentLogger;
  const store = options.store ?? (await openStore(config, { logger }));
  try {
    const embedder = await createEmbedder(config);
    const reranker = await createReranker(config);
    const assertEmbedderMatches = async () => {
      const stored = await store.embedderInfo();
      if (stored && (stored.id !== embedder.id || stored.dimension !== embedder.dimension)) {
        throw new EmbedderMismatchError(stored, embedder);
      }
    };
    const retrieval = resolveRetrievalSettings(config, embedder);
    const search = new HybridSearch({ store, embedder, ...(reranker ? { reranker } : {}), defaults: retrieval });
    return {
      config,
      retrieval,
      store,
      embedder,
      reranker,
      ingestor: new Ingestor({ store, embedder, config, logger }),
      search,
      assertEmbedderMatches,
      async principalFor(userName) {
        const user = await store.getUser(userName);
        if (!user) throw new NotFoundError('user', userName, `Add them with \`evident users add ${userName} --groups …\`.`);
        return { id: user.name, groups: user.groups, roles: user.roles };
      },
      reindex: (onProgress) => reindex({ store, embedder }, onProgress),
      async close() {
        await reranker?.close?.();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

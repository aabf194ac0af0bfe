import type { AgentRuntime, AgentRuntimeOptions } from './agent/agent-runtime.ts';
import { AuditRecorder } from './audit/audit-recorder.ts';
import { resolveRetrievalSettings, type EvidentConfig, type RetrievalSettings } from './config/index.ts';
import type { Principal } from './domain/index.ts';
import { EmbedderMismatchError, NotFoundError, ValidationError } from './errors/index.ts';
import { Ingestor } from './ingest/ingestor.ts';
import { silentLogger, type Logger } from './logging/logger.ts';
import type { ChatModel } from './models/chat/chat-model.ts';
import { createChatModel } from './models/chat/create-chat-model.ts';
import { createVisionModel } from './models/chat/create-vision-model.ts';
import { FIGURE_DESCRIPTION_TOKENS, modelFigureDescriber } from './ingest/figures/model-figure-describer.ts';
import { createEmbedder } from './models/create-embedder.ts';
import { createReranker } from './models/create-reranker.ts';
import type { Embedder } from './models/embedder.ts';
import type { Reranker } from './models/reranker.ts';
import { HybridSearch } from './retrieval/hybrid-search.ts';
import { reindex, type ReindexProgress } from './retrieval/reindex.ts';
import { openStore } from './store/open-store.ts';
import type { Store } from './store/store.ts';
import type { TracingEnv } from './telemetry/otlp-endpoint.ts';
import { startTracing } from './telemetry/start-tracing.ts';

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
  /** The one audit recorder (the store's append-only log, the `audit` config): every front end and the run engine record through it. */
  readonly audit: AuditRecorder;
  /**
   * The configured chat model (`--llm` / `EVIDENT_LLM`), built on first use and shared by every agent, the llm
   * reranker and ingestion's summaries, so a GGUF is loaded once; undefined offline.
   */
  chatModel(): Promise<ChatModel | undefined>;
  /** Every agent and the one run manager that executes them, built once on first use with the chat model. */
  agents(): Promise<AgentRuntime>;
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
  /** Use this chat model instead of the configured one (tests: a recording or scripted model). */
  chat?: ChatModel;
  /** Use this vision model, which describes PDF figures, instead of the configured `vision` (tests: a recording model). */
  vision?: ChatModel;
  /** Runtime settings beyond the config (tests: a faster poll). */
  agents?: Omit<AgentRuntimeOptions, 'chat' | 'logger'>;
  /** Where `OTEL_EXPORTER_OTLP_ENDPOINT` and the other OpenTelemetry variables are read (default `process.env`). */
  env?: TracingEnv;
}

/** The composition root: builds the store, models, services and agents from config, each once. */
export async function createEvident(config: EvidentConfig, options: CreateEvidentOptions = {}): Promise<Evident> {
  const logger = options.logger ?? silentLogger;
  // First, so every span of this Evident has a provider; with no OTLP endpoint this loads and registers nothing.
  const tracing = await startTracing({
    recordQuestions: config.tracing?.recordQuestions === true,
    logger,
    ...(options.env ? { env: options.env } : {}),
  });
  const store =
    options.store ??
    (await openStore(config, { logger }).catch(async (error: unknown) => {
      await tracing.close();
      throw error;
    }));
  // A model the caller gave is theirs to close; the configured one is built here, once, and closed with the rest.
  // Every call of the one chat model is a span while tracing is on: the configured model reports them from its
  // construction; a model the caller gave gets the handler added, and taken off again on close.
  const built = once(() =>
    options.chat ? Promise.resolve(undefined) : createChatModel(config, { traced: tracing.active }),
  );
  let untrace: (() => void) | undefined;
  const chatModel = async (): Promise<ChatModel | undefined> => {
    if (!options.chat) return built();
    if (tracing.active && !untrace) {
      const { traceChatModel } = await import('./telemetry/chat-model-spans.ts');
      untrace ??= traceChatModel(options.chat.model, options.chat.id);
    }
    return options.chat;
  };
  // The vision model describes figures during ingestion: built here when configured, closed with the rest.
  let visionHandle: Awaited<ReturnType<typeof createVisionModel>>;
  try {
    visionHandle = options.vision
      ? undefined
      : await createVisionModel(config, { maxTokens: FIGURE_DESCRIPTION_TOKENS });
  } catch (error) {
    await store.close();
    await tracing.close();
    throw error;
  }
  const vision = options.vision ?? visionHandle;
  try {
    const embedder = await createEmbedder(config);
    const reranker = await createReranker(config, chatModel);
    const assertEmbedderMatches = async () => {
      const stored = await store.embedderInfo();
      if (stored && (stored.id !== embedder.id || stored.dimension !== embedder.dimension)) {
        throw new EmbedderMismatchError(stored, embedder);
      }
    };
    const retrieval = resolveRetrievalSettings(config, embedder);
    const search = new HybridSearch({ store, embedder, ...(reranker ? { reranker } : {}), defaults: retrieval });
    let runtime: Promise<AgentRuntime> | undefined;
    const ingestor = new Ingestor({
      store,
      embedder,
      config,
      logger,
      ...(vision ? { figures: modelFigureDescriber(vision) } : {}),
    });
    const audit = new AuditRecorder({ store, config: config.audit, askTopK: retrieval.topK });
    const evident: Evident = {
      config,
      retrieval,
      store,
      embedder,
      reranker,
      ingestor,
      search,
      audit,
      chatModel,
      agents() {
        // The agents (LangGraph and the offline engines) load on first use: search and ingest never need them.
        runtime ??= Promise.all([chatModel(), import('./agent/agent-runtime.ts')]).then(
          ([chat, { openAgentRuntime }]) =>
            openAgentRuntime(evident, { ...options.agents, logger, ...(chat ? { chat } : {}) }),
        );
        return runtime;
      },
      assertEmbedderMatches,
      async principalFor(userName) {
        const user = await store.getUser(userName);
        if (!user)
          throw new NotFoundError('user', userName, `Add them with \`evident users add ${userName} --groups …\`.`);
        if (!user.active)
          throw new ValidationError(`${userName} is deactivated: they act as nobody and match no document.`, {
            hint: `Activate them with \`evident users activate ${userName}\`.`,
          });
        return { id: user.name, groups: user.groups, roles: user.roles };
      },
      reindex: (onProgress) => reindex({ store, embedder }, onProgress),
      async close() {
        // Agents first (they cancel what still runs and close their checkpointers), then the ingest workers and what they used.
        await (await runtime?.catch(() => undefined))?.close();
        await ingestor.close();
        await reranker?.close?.();
        await (await built.settled())?.close();
        await visionHandle?.close();
        await store.close();
        untrace?.();
        // Last: the spans of everything above are sent before the process may exit.
        await tracing.close();
      },
    };
    return evident;
  } catch (error) {
    await (await built.settled())?.close();
    await visionHandle?.close();
    await store.close();
    untrace?.();
    await tracing.close();
    throw error;
  }
}

/** A lazily started task that runs at most once; `settled()` is its value if it was started and succeeded. */
function once<T>(start: () => Promise<T>): (() => Promise<T>) & { settled(): Promise<T | undefined> } {
  let started: Promise<T> | undefined;
  const run = () => (started ??= start());
  return Object.assign(run, { settled: async () => (started ? started.catch(() => undefined) : undefined) });
}

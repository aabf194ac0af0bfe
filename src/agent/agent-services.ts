import type { AgentsConfig, RetrievalSettings, TablesConfig } from '../config/index.ts';
import type { Embedder } from '../models/embedder.ts';
import type { HybridSearch } from '../retrieval/hybrid-search.ts';
import type { DocumentStore } from '../store/ports/document-store.ts';
import type { MemoryStore } from '../store/ports/memory-store.ts';
import type { PrincipalStore } from '../store/ports/principal-store.ts';

/**
 * What agents read of the store: documents, chunks and tables as the principal may see them, the asking user's
 * memories, and a user's current groups (permissions are resolved at every step, not copied at the start).
 */
export type AgentStore = DocumentStore & MemoryStore & Pick<PrincipalStore, 'getUser'>;

/**
 * The services every agent is built from (ARCHITECTURE §2): the focused parts of the composition root an agent uses,
 * never the whole `Evident`, so an agent cannot reach what it has no business with (the run log, the audit log, the
 * ingestor) and the composition root depends on the agents, not the reverse.
 */
export interface AgentServices {
  readonly store: AgentStore;
  readonly search: HybridSearch;
  /** Embeds questions and memories for long-term memory (the store's embedder). */
  readonly embedder: Embedder;
  /** The resolved retrieval settings: agents take `topK` results per query. */
  readonly retrieval: Pick<RetrievalSettings, 'topK'>;
  /** The agents' bounds (`agents.*`) and the table tool's limits (`tables`). */
  readonly config: { readonly agents: AgentsConfig; readonly tables: TablesConfig };
}

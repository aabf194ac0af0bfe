import type { Embedder } from '../../models/embedder.ts';
import type { HybridSearch } from '../../retrieval/hybrid-search.ts';
import type { AgentStore } from '../agent-services.ts';
import type { AgentContext } from '../agent-context.ts';
import { createTableQueryTool, type TableQueryTool } from './tools/table-query.ts';
import type { ModelStepDeps } from './model-or-offline.ts';
import type { GateThresholds } from './evidence-gate/evidence-gate.ts';

/**
 * What every agent's nodes work with, the shared nodes' needs included. Without `chat`, every LLM step uses its
 * deterministic offline strategy. Each agent's deps extend this with its own bounds.
 */
export interface SharedDeps extends ModelStepDeps {
  search: HybridSearch;
  store: AgentStore;
  /** Embeds questions and memories for long-term memory (the store's embedder). */
  embedder: Embedder;
  /** One read-only SELECT over the ingested tables the principal may see (the same tool for every agent). */
  tableQuery: TableQueryTool;
  /** Results a retrieval takes (per sub-question, query or retrieval tool). */
  topK: number;
  /** Further answers after the citation check dropped every citation. */
  maxCitationRetries: number;
  /** Whether the evidence gate's verdict replaces the answer (`enforce`) or is only recorded (`off`). */
  evidenceGate: 'enforce' | 'off';
  /** The gate's operating point (`agents.evidenceGateThresholds`). */
  gateThresholds: GateThresholds;
}

/** What load_memory needs beyond the shared deps: the history window and the long-term memory bounds. */
export interface MemoryDeps {
  /** Turns of history kept verbatim; older ones are folded into the running summary. */
  historyWindow: number;
  /** Long-term memories loaded per run, and the cosine similarity a memory needs to be loaded. */
  memoryLimit: number;
  memoryFloor: number;
}

/** The shared services an agent's deps start from (its bounds come from its own `agents.*` settings). */
export function sharedServices({
  services,
  chat,
  instructions,
}: Pick<AgentContext, 'services' | 'chat' | 'instructions'>) {
  return {
    search: services.search,
    store: services.store,
    embedder: services.embedder,
    tableQuery: createTableQueryTool({ store: services.store, limits: services.config.tables }),
    topK: services.retrieval.topK,
    evidenceGate: services.config.agents.evidenceGate,
    gateThresholds: services.config.agents.evidenceGateThresholds,
    ...(chat ? { chat } : {}),
    ...(instructions ? { instructions } : {}),
  } satisfies Omit<SharedDeps, 'maxCitationRetries' | 'maxSchemaRetries'>;
}

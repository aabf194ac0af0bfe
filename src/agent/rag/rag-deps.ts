import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AgentStore } from '../agent-services.ts';
import type { Embedder } from '../../models/embedder.ts';
import type { HybridSearch } from '../../retrieval/hybrid-search.ts';
import type { TableQueryTool } from '../tools/table-query.ts';
import type { RagStateType, RagUpdate } from './rag-state.ts';

/** What the `rag` nodes work with. Without `chat`, every LLM step uses its deterministic offline strategy. */
export interface RagDeps {
  search: HybridSearch;
  store: AgentStore;
  /** Embeds questions and memories for long-term memory (the store's embedder). */
  embedder: Embedder;
  tableQuery: TableQueryTool;
  chat?: { id: string; model: BaseChatModel };
  /** Results taken per sub-question. */
  topK: number;
  /** Evidence kept after merging. */
  maxEvidence: number;
  /** Further generate attempts after the citation check dropped every citation. */
  maxCitationRetries: number;
  /** Further attempts when a structured answer does not validate. */
  maxSchemaRetries: number;
  /** Turns of history kept verbatim; older ones are folded into the running summary. */
  historyWindow: number;
  /** Long-term memories loaded per run, and the cosine similarity a memory needs to be loaded. */
  memoryLimit: number;
  memoryFloor: number;
}

/** A node's result: the partial state it writes, and a one-line summary for the run's steps. */
export interface NodeResult {
  update: RagUpdate;
  summary: string;
}

export type RagNode = (state: RagStateType, deps: RagDeps) => Promise<NodeResult>;

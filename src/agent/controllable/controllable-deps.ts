import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AgentStore } from '../agent-services.ts';
import type { Embedder } from '../../models/embedder.ts';
import type { HybridSearch } from '../../retrieval/hybrid-search.ts';
import type { TableQueryTool } from '../tools/table-query.ts';
import type { ControllableStateType, ControllableUpdate } from './controllable-state.ts';

/** What the `controllable` nodes work with. Without `chat`, every LLM step uses its deterministic offline strategy. */
export interface ControllableDeps {
  search: HybridSearch;
  store: AgentStore;
  /** Embeds a memory the user asked to save (the store's embedder). */
  embedder: Embedder;
  /** One read-only SELECT over the ingested tables the principal may see (the same tool `rag` and `react` use). */
  tableQuery: TableQueryTool;
  chat?: { id: string; model: BaseChatModel };
  /** Items each retrieval tool returns. */
  topK: number;
  /** Tasks a plan may hold. */
  maxTasks: number;
  /** Query rewrites after a relevance check found nothing relevant, per task. */
  maxRelevanceRetries: number;
  /** Further answers after the groundedness check rejected one, per task. */
  maxGroundednessRetries: number;
  /** Replans (tasks executed) per run, whatever the planner says. */
  maxReplans: number;
  /** Further final answers after the citation check dropped every citation. */
  maxCitationRetries: number;
  /** Further attempts when a structured answer does not validate. */
  maxSchemaRetries: number;
}

export interface ControllableNodeResult {
  update: ControllableUpdate;
  summary: string;
}

export type ControllableNode = (
  state: ControllableStateType,
  deps: ControllableDeps,
) => Promise<ControllableNodeResult>;

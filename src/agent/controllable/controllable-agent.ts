import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Evident } from '../../evident.ts';
import { openCheckpointer } from '../checkpointer.ts';
import { buildControllableGraph, controllableGraphMermaid, type ControllableGraph } from './controllable-graph.ts';
import type { ControllableDeps } from './controllable-deps.ts';

/** The `controllable` agent: its checkpointed graph. Runs go through the run runtime, as for the API and the CLI. */
export interface ControllableAgent {
  readonly graph: ControllableGraph;
  mermaid(): string;
  close(): void;
}

export interface ControllableAgentOptions {
  chat?: { id: string; model: BaseChatModel };
  deps?: Partial<Omit<ControllableDeps, 'search' | 'store' | 'chat'>>;
}

/** The bounds a run works within unless configured otherwise. */
export const CONTROLLABLE_DEFAULTS = {
  maxTasks: 6,
  maxRelevanceRetries: 2,
  maxGroundednessRetries: 1,
  maxReplans: 8,
  maxCitationRetries: 1,
  maxSchemaRetries: 2,
} as const;

/** The `controllable` agent over an Evident instance, checkpointed in its store by thread_id. */
export function openControllableAgent(evident: Evident, options: ControllableAgentOptions = {}): ControllableAgent {
  const deps: ControllableDeps = {
    search: evident.search,
    store: evident.store,
    topK: evident.retrieval.topK,
    ...CONTROLLABLE_DEFAULTS,
    ...options.deps,
    ...(options.chat ? { chat: options.chat } : {}),
  };
  const checkpointer = openCheckpointer(evident.store);
  const graph = buildControllableGraph(deps, { checkpointer: checkpointer.saver });
  return { graph, mermaid: () => controllableGraphMermaid(graph), close: () => checkpointer.close() };
}

import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Evident } from '../../evident.ts';
import { openCheckpointer } from '../checkpointer.ts';
import { buildReactGraph, reactGraphMermaid, type ReactGraph } from './react-graph.ts';
import { defaultRagDeps } from '../rag-agent.ts';
import type { ReactDeps } from './react-deps.ts';

/** The `react` agent: its checkpointed graph. Runs go through the run runtime, as for the API and the CLI. */
export interface ReactAgent {
  readonly graph: ReactGraph;
  mermaid(): string;
  close(): void;
}

export interface ReactAgentOptions {
  chat?: { id: string; model: BaseChatModel };
  deps?: Partial<Omit<ReactDeps, 'search' | 'store' | 'embedder' | 'tableQuery' | 'chat'>>;
}

export const DEFAULT_MAX_ITERATIONS = 10;

/** The react nodes' dependencies over an Evident instance: its search, store and models, the defaults, then `options`. */
export function createReactDeps(evident: Evident, options: ReactAgentOptions = {}): ReactDeps {
  return {
    ...defaultRagDeps(evident),
    maxIterations: DEFAULT_MAX_ITERATIONS,
    protocol: 'auto',
    fusionQueries: 4,
    fusionDepth: 10,
    ...options.deps,
    ...(options.chat ? { chat: options.chat } : {}),
  };
}

/** The `react` agent over an Evident instance, checkpointed in its store by thread_id. */
export function openReactAgent(evident: Evident, options: ReactAgentOptions = {}): ReactAgent {
  const deps = createReactDeps(evident, options);
  const checkpointer = openCheckpointer(evident.store);
  const graph = buildReactGraph(deps, { checkpointer: checkpointer.saver });
  return { graph, mermaid: () => reactGraphMermaid(graph), close: () => checkpointer.close() };
}

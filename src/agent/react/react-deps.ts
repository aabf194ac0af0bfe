import type { MemoryDeps, SharedDeps } from '../core/shared-deps.ts';
import type { ReactStateType, ReactUpdate } from './react-state.ts';

/**
 * `native`: the model's own tool calling (`bindTools`); `text`: the Thought / Action / Action Input protocol parsed
 * from plain text; `auto`: native when the model offers `bindTools`, else text.
 */
export type ReactProtocol = 'auto' | 'native' | 'text';

/** What the `react` nodes work with: the shared deps, the memory bounds, and the loop's settings. */
export interface ReactDeps extends SharedDeps, MemoryDeps {
  /** Evidence a knowledge_base call keeps after fusing. */
  maxEvidence: number;
  /** Model decisions per run; at the bound the run stops with a refusal. */
  maxIterations: number;
  protocol: ReactProtocol;
  /** Search queries RAG fusion runs per knowledge_base call (the question itself included). */
  fusionQueries: number;
  /** Results taken per query before fusing. */
  fusionDepth: number;
}

export interface ReactNodeResult {
  update: ReactUpdate;
  summary: string;
}

export type ReactNode = (state: ReactStateType, deps: ReactDeps) => Promise<ReactNodeResult>;

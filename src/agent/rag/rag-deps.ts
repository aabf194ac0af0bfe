import type { MemoryDeps, SharedDeps } from '../core/shared-deps.ts';
import type { RagStateType, RagUpdate } from './rag-state.ts';

/** What the `rag` nodes work with: the shared deps, the memory bounds, and what merging keeps. */
export interface RagDeps extends SharedDeps, MemoryDeps {
  /** Evidence kept after merging. */
  maxEvidence: number;
}

/** A node's result: the partial state it writes, and a one-line summary for the run's steps. */
export interface NodeResult {
  update: RagUpdate;
  summary: string;
}

export type RagNode = (state: RagStateType, deps: RagDeps) => Promise<NodeResult>;

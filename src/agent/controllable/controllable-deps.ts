import type { SharedDeps } from '../core/shared-deps.ts';
import type { ControllableStateType, ControllableUpdate } from './controllable-state.ts';

/** What the `controllable` nodes work with: the shared deps (topK: items each retrieval tool returns) and its bounds. */
export interface ControllableDeps extends SharedDeps {
  /** Tasks a plan may hold. */
  maxTasks: number;
  /** Query rewrites after a relevance check found nothing relevant, per task. */
  maxRelevanceRetries: number;
  /** Further answers after the groundedness check rejected one, per task. */
  maxGroundednessRetries: number;
  /** Replans (tasks executed) per run, whatever the planner says. */
  maxReplans: number;
}

export interface ControllableNodeResult {
  update: ControllableUpdate;
  summary: string;
}

export type ControllableNode = (
  state: ControllableStateType,
  deps: ControllableDeps,
) => Promise<ControllableNodeResult>;

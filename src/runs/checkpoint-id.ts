import type { StateSnapshot } from '@langchain/langgraph';

/** The id of a state's checkpoint; null for the empty state of a thread without checkpoints. */
export const checkpointIdOf = (state: StateSnapshot): string | null =>
  state.createdAt ? ((state.config?.configurable?.checkpoint_id as string | undefined) ?? null) : null;

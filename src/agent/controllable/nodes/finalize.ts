import { finalize as finalizeRun } from '../../core/nodes/finalize.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/** The shared finalize (core/nodes/finalize.ts); controllable's step also says how many tasks the run did. */
export const finalize: ControllableNode = async (state) => {
  const { update, summary } = await finalizeRun(state);
  return { update, summary: `${summary}, ${state.past_steps.length} task(s) done` };
};

import type { ControllableNode } from '../controllable-deps.ts';
import { deanonymize } from '../entities.ts';

/** Puts the entities back into the plan: the tasks the run acts on name what the question named. */
export const deanonymizePlan: ControllableNode = async (state) => {
  const plan = state.plan.map((task) => deanonymize(task, state.mapping));
  return { update: { plan }, summary: plan.join(' | ') };
};

import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import type { PastStep } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { resolveReferences } from '../offline-plan.ts';

const replanSchema = z.object({ done: z.boolean(), plan: z.array(z.string().trim().min(3)) });

/**
 * Records the finished task, then decides what is left: the model replans from the question and what was found, or
 * offline the remaining tasks go on with their #n references resolved from the answers so far. Done when nothing
 * is left, or, whatever the planner says, after `maxReplans` tasks.
 */
export const replan: ControllableNode = async (state, deps) => {
  const outcome: PastStep['outcome'] =
    state.relevant === false ? 'no_relevant_content' : state.grounded ? 'answered' : 'not_grounded';
  const step: PastStep = {
    task: state.curr_task,
    tool: state.tool === '' ? 'retrieve_chunks' : state.tool,
    query: state.query_to_retrieve_or_answer,
    response: outcome === 'answered' ? state.response : '',
    support: outcome === 'answered' ? state.response_support : [],
    outcome,
    sources: [
      ...new Set([
        ...state.curr_context.flatMap((item) => item.chunk_ids),
        ...state.response_support.map((item) => item.chunk_id),
      ]),
    ],
  };
  const pastSteps = [...state.past_steps, step];
  const remaining = state.plan.slice(1);
  const count = state.replan_count + 1;
  const history = pastSteps
    .map((past, i) => `${i + 1}. ${past.task} → ${past.response || `(${past.outcome.replaceAll('_', ' ')})`}`)
    .join('\n');
  const decided = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'replan',
      schema: replanSchema,
      system:
        'Update the plan. Given the question, the tasks done with their answers, and the tasks left, return the tasks still needed (refer to earlier answers by their content) ' +
        'and done: true when the question can be answered from what was found, or cannot be answered at all.',
      prompt: `Question: ${state.standalone_question || state.question}\n\nDone:\n${history}\n\nLeft:\n${remaining.map((task) => `- ${task}`).join('\n') || '(none)'}`,
    },
    (output) => ({ done: output.done || output.plan.length === 0, plan: output.plan.slice(0, deps.maxTasks) }),
    () => {
      const plan = resolveReferences(remaining, pastSteps);
      return { done: plan.length === 0, plan };
    },
  );
  const bounded = !decided.value.done && count >= deps.maxReplans;
  const done = decided.value.done || bounded;
  return {
    update: {
      past_steps: pastSteps,
      plan: done ? [] : decided.value.plan,
      // The new tasks are written from the answers so far ("the fee of $48,000 …"): they rest on those answers' chunks.
      plan_sources: [...new Set(pastSteps.flatMap((past) => past.sources))],
      plan_done: done,
      replan_count: count,
      errors: decided.errors,
    },
    summary: `${step.outcome}: ${step.task} → ${bounded ? `stopped at the bound of ${deps.maxReplans} tasks` : done ? 'done' : `next: ${decided.value.plan[0]}`} (${decided.strategy})`,
  };
};

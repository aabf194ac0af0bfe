import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { planOffline } from '../offline-plan.ts';

const planSchema = z.object({ plan: z.array(z.string().trim().min(3)).min(1) });

/**
 * Plans on the anonymized question only: the planner never sees the entities' names, so the plan follows the
 * question's shape. Each task is one step; a task may refer to an earlier task's answer as #n; the last task
 * answers the question from the gathered context. At most `maxTasks` tasks are kept.
 */
export const planner: ControllableNode = async (state, deps) => {
  const question = state.anonymized_question || state.question;
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'plan',
      schema: planSchema,
      system:
        `Make a step-by-step plan to answer the question from a document collection, at most ${deps.maxTasks} tasks. ` +
        'Each task is one self-contained lookup or reasoning step; refer to the answer of an earlier task as #1, #2, …; ' +
        'keep variables such as ENTITY_1 exactly as written; the last task answers the question from the gathered context.',
      prompt: `Question: ${question}`,
    },
    (output) => output.plan,
    () => planOffline(question, deps.maxTasks),
  );
  const tasks = outcome.value.slice(0, deps.maxTasks);
  return {
    update: { plan: tasks, errors: outcome.errors },
    summary: `${tasks.length} task(s) (${outcome.strategy}): ${tasks.join(' | ')}`,
  };
};

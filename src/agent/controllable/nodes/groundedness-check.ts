import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { groundedOffline } from '../offline-judgement.ts';
import { formatItems } from './keep-relevant.ts';
import { taskContext } from './answer-from-context.ts';

const groundedSchema = z.object({ grounded: z.boolean(), reason: z.string() });

/**
 * Is the task's answer supported by its context (no hallucination)? An empty answer is not. Offline, every
 * sentence must occur verbatim in the chunk it came from. Not grounded: answer again (bounded), then give the task up.
 */
export const groundednessCheck: ControllableNode = async (state, deps) => {
  const { items, evidence } = taskContext(state);
  const outcome = !state.response
    ? { value: { grounded: false, reason: 'no answer' }, strategy: 'no answer', errors: state.errors }
    : await modelOrOffline(
        deps,
        state.errors,
        {
          node: 'groundedness_check',
          schema: groundedSchema,
          system:
            'Decide whether every statement of the answer is supported by the context. Anything the context does not state makes it not grounded.',
          prompt: `Context:\n${formatItems(items)}\n\nAnswer: ${state.response}`,
        },
        (output) => output,
        () => ({
          grounded: groundedOffline(state.response_support, evidence),
          reason: 'each sentence checked against its chunk',
        }),
      );
  return {
    update: { grounded: outcome.value.grounded, errors: outcome.errors },
    summary: `${outcome.value.grounded ? 'grounded' : 'not grounded'} (${outcome.strategy}: ${outcome.value.reason})`,
  };
};

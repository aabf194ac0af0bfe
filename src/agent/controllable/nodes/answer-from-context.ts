import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import type { ControllableStateType } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { answerOffline } from '../offline-judgement.ts';
import { formatItems } from './keep-relevant.ts';

const answerSchema = z.object({ answer: z.string().trim().min(1) });

/** A retrieval task answers from what it kept; an answer task from everything the run kept. */
export function taskContext(state: ControllableStateType) {
  const answerTask = state.tool === 'answer_from_context';
  const items = answerTask ? state.aggregated_context : state.curr_context;
  const evidence = answerTask ? state.evidence : state.curr_evidence;
  return { items, evidence };
}

/** Earlier tasks and their answers, as the model sees them. */
export const formatPastSteps = (state: ControllableStateType): string =>
  state.past_steps
    .filter((step) => step.outcome === 'answered')
    .map((step, i) => `${i + 1}. ${step.task} → ${step.response}`)
    .join('\n');

/**
 * Answers the current task from its context only: the model's answer, or offline the evidence sentences that
 * answer it (verbatim, with their chunks). A retry after the groundedness check counts against its bound.
 */
export const answerFromContext: ControllableNode = async (state, deps) => {
  const query = state.query_to_retrieve_or_answer || state.curr_task;
  const { items, evidence } = taskContext(state);
  const retry = state.grounded === false;
  const earlier = formatPastSteps(state);
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'answer_from_context',
      schema: answerSchema,
      system:
        'Answer the task using only the context. Say only what the context states; if it does not contain the answer, say that it does not.' +
        (retry ? ' Your previous answer was not supported by the context: answer again, staying strictly within it.' : ''),
      prompt: `Task: ${query}\n\n${earlier ? `Earlier answers:\n${earlier}\n\n` : ''}Context:\n${formatItems(items)}${retry ? `\n\nRejected answer: ${state.response}` : ''}`,
    },
    (output) => ({ response: output.answer, support: [] as { chunk_id: string; sentence: string }[] }),
    () => {
      // Only a complete chain carries over: the hop just before the answer task must itself have been answered.
      const last = state.past_steps.at(-1);
      const previous = state.tool === 'answer_from_context' && last?.outcome === 'answered' ? last.support : [];
      const support = answerOffline(query, items, evidence, previous);
      return { response: support.map((item) => item.sentence).join(' '), support };
    },
  );
  return {
    update: {
      response: outcome.value.response,
      response_support: outcome.value.support,
      groundedness_retries: retry ? state.groundedness_retries + 1 : state.groundedness_retries,
      errors: outcome.errors,
    },
    summary: `${retry ? `retry ${state.groundedness_retries + 1}: ` : ''}${outcome.value.response ? `answered (${outcome.strategy})` : `no answer in ${items.length} item(s) (${outcome.strategy})`}`,
  };
};

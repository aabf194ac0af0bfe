import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import type { ControllableStateType } from '../controllable-state.ts';
import { CITE_BY_ID } from '../../core/llm-prompts.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { verdictFromJudgement } from '../../core/model-judgement.ts';
import { answerOffline } from '../offline-judgement.ts';
import { formatItems } from './keep-relevant.ts';

const judgedAnswer = z.object({
  supporting: z.array(z.object({ id: z.string().min(1), sentence: z.string().min(1) })).max(12),
  sufficiency: z.number().min(0).max(1),
  answer: z.string().trim(),
  missing_information: z.array(z.string()),
});

/**
 * Extract, judge, then answer (the semantics every agent's model path shares): the context sentences that state the
 * answer by item id, their sufficiency in 0..1, and the answer written from them. A reply in the older shape (an
 * answer alone) is read as sufficient with nothing extracted.
 */
const answerSchema = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null || 'sufficiency' in raw) return raw;
  return { supporting: [], missing_information: [], ...raw, sufficiency: 1 };
}, judgedAnswer);

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
 * answer it (verbatim, with their chunks). With a model the answer stands only when its extracted sentences are
 * sufficient by the shared threshold (offline-qa/sufficiency.ts), and its support is those sentences the evidence contains;
 * below the threshold the task has no answer. A retry after the groundedness check counts against its bound.
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
        'Answer the task using only the context. First copy into supporting, word for word, the context sentences that state the answer, each with the [id: …] of its item; ' +
        'judge in sufficiency (0 to 1) how likely they state the whole answer; then write the answer from them, saying only what they state. If the context does not contain the answer, extract nothing, give a low sufficiency and name what is missing. ' +
        CITE_BY_ID.replace('[chunk_id: …]', '[id: …]') +
        (retry
          ? ' Your previous answer was not supported by the context: answer again, staying strictly within it.'
          : ''),
      prompt: `Task: ${query}\n\n${earlier ? `Earlier answers:\n${earlier}\n\n` : ''}Context:\n${formatItems(items)}${retry ? `\n\nRejected answer: ${state.response}` : ''}`,
    },
    (output) => {
      const verdict = verdictFromJudgement(
        query,
        {
          supporting: output.supporting.map((item) => ({ chunk_id: item.id, sentence: item.sentence })),
          sufficiency: output.sufficiency,
          reasons: [],
          missing_information: output.missing_information,
        },
        evidence,
      );
      const support = verdict.support.map(({ chunk_id, sentence }) => ({ chunk_id, sentence }));
      return { response: verdict.answerable ? output.answer : '', support };
    },
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

import { answerSchema, refusal, type Answer } from '../../../domain/answer.ts';
import { describeMissing } from '../../offline-qa/information-need.ts';
import { asModelFallback, extractiveAnswer } from '../../offline-qa/extractive-answer.ts';
import { formatEvidence } from '../../core/llm-prompts.ts';
import { identifiersIn } from '../../../text/identifiers.ts';
import { moduleFor } from '../../../text/languages.ts';
import type { ControllableNode } from '../controllable-deps.ts';
import type { ControllableStateType } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { formatPastSteps } from './answer-from-context.ts';

/** What is missing when no task found grounded evidence, said as `rag` says it. */
function missingOf(state: ControllableStateType): string[] {
  const question = state.standalone_question || state.question;
  const ids = identifiersIn(question);
  const stated = new Set(state.evidence.flatMap((item) => identifiersIn(`${item.title} ${item.text}`)));
  return [
    describeMissing({
      question,
      identifiers: ids,
      identifiersFound: ids.length > 0 && ids.every((id) => stated.has(id)),
      related: state.aggregated_context.length,
      evidence: state.evidence.length,
      kind: moduleFor(question).focus(question).answer_type,
    }),
  ];
}

/**
 * Offline: the answered tasks' sentences, each with its citation, when the last task was answered; else a
 * refusal that says what is missing.
 */
function offlineAnswer(state: ControllableStateType): Answer {
  const last = state.past_steps.at(-1);
  if (!last || last.outcome !== 'answered') return refusal(missingOf(state));
  const support = state.past_steps
    .filter((step) => step.outcome === 'answered')
    .flatMap((step) => step.support.map((item) => ({ query: step.task, ...item })));
  const answer = extractiveAnswer(
    { answerable: true, sufficiency: 1, reasons: [], missing_information: [], support },
    state.evidence,
    1,
  );
  return answer.answerable ? answer : refusal(missingOf(state));
}

/**
 * The answer contract from the run's evidence and the tasks' answers: the model's (cited, schema-validated; on a
 * citation retry with why its citations were dropped), or the offline extractive answer. No evidence, or a last
 * task left unanswered offline, is a refusal with `missing_information`.
 */
export const finalAnswer: ControllableNode = async (state, deps) => {
  if (state.evidence.length === 0) {
    const answer = refusal(missingOf(state));
    return { update: { answer, status: 'refused' }, summary: `refused: ${answer.missing_information.join('; ')}` };
  }
  const feedback = state.citation_feedback.length
    ? `\n\nYour previous answer's citations were rejected:\n${state.citation_feedback.map((line) => `- ${line}`).join('\n')}\nCite only chunk_ids listed above, with quotes copied exactly from that chunk.`
    : '';
  const findings = formatPastSteps(state);
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'final_answer',
      schema: answerSchema,
      system:
        'Answer the question only from the evidence. Cite every claim: each citation names the chunk_id and doc_id of an evidence chunk and quotes its exact words. ' +
        'The findings of earlier tasks guide you but are not evidence. If the evidence does not state the answer, set answerable to false and list the missing information.',
      prompt: `${findings ? `Findings of the plan's tasks (not evidence):\n${findings}\n\n` : ''}Evidence:\n${formatEvidence(state.evidence)}\n\nQuestion: ${state.standalone_question || state.question}${feedback}`,
    },
    (answer) => answer,
    () => offlineAnswer(state),
  );
  const answer = outcome.strategy === 'offline after a model error' ? asModelFallback(outcome.value) : outcome.value;
  return {
    update: { answer, errors: outcome.errors, ...(answer.answerable ? {} : { status: 'refused' as const }) },
    summary: answer.answerable
      ? `answer with ${answer.citations.length} citation(s) (${outcome.strategy})`
      : `refused (${outcome.strategy}): ${answer.missing_information.join('; ')}`,
  };
};

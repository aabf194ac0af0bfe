import { z } from 'zod';
import { modelOrOffline, type ModelStepDeps } from '../model-or-offline.ts';
import type { RunError } from '../../../domain/step.ts';
import type { Turn } from '../../../domain/turn.ts';
import { identifiersIn } from '../../../text/text-heuristics.ts';
import { refersBack, resolveReference, withoutConnective } from '../../../text/references.ts';
import { summaryIdentifiers } from '../memory/history-summary.ts';
import { formatConversation } from '../llm-prompts.ts';

/**
 * Offline: whether the question needs the history (or its summary) to be understood: it refers back and names nothing
 * itself. Only the offline strategy is gated so; with a model, every follow-up goes to it (any language, any phrasing).
 */
export const needsRewrite = (question: string, history: readonly Turn[], summary = ''): boolean =>
  (history.length > 0 || summary.length > 0) && refersBack(question) && identifiersIn(question).length === 0;

const rewriteSchema = z.object({ standalone_question: z.string().min(3) });

/** Offline: the reference is replaced by the identifier most recently named in the window, else in the summary. */
export function rewriteOffline(question: string, history: readonly Turn[], summary = ''): string {
  const subject =
    [...history]
      .reverse()
      .map((turn) => identifiersIn(turn.content)[0])
      .find(Boolean) ?? summaryIdentifiers(summary)[0];
  if (subject) return resolveReference(question, subject);
  const body = withoutConnective(question);
  const lastQuestion = [...history].reverse().find((turn) => turn.role === 'user')?.content;
  return lastQuestion ? `${body} (context: ${lastQuestion})` : body;
}

/**
 * Resolves "it / that / the previous one" (or "它", "那个合同"…) from the thread's history; a question that stands alone
 * is kept. With a model, every question that has a conversation before it is the model's to rewrite: no pattern
 * decides for it which follow-ups refer back, so a follow-up in any language is resolved. Offline, only a question
 * that refers back (an English or Chinese pronoun or demonstrative, text/references.ts) and names no identifier is rewritten.
 */
export const rewrite = (state: FollowUp, deps: ModelStepDeps) => standaloneQuestion(state, deps);

/** What the rewrite reads of a run: the question, the thread's window and its running summary (none when the agent keeps none). */
export interface FollowUp {
  question: string;
  history: readonly Turn[];
  history_summary?: string;
  errors: RunError[];
}

/** The rewrite step of every agent that takes follow-ups (rag, react, controllable): the question made standalone. */
export async function standaloneQuestion(
  state: FollowUp,
  deps: ModelStepDeps,
): Promise<{ update: { standalone_question: string; errors?: RunError[] }; summary: string }> {
  const question = state.question.trim();
  const summary = state.history_summary ?? '';
  const hasConversation = state.history.length > 0 || summary.length > 0;
  const asks = deps.chat ? hasConversation : needsRewrite(question, state.history, summary);
  if (!asks) {
    return { update: { standalone_question: question }, summary: 'skipped: the question stands alone' };
  }
  const {
    value: standalone,
    strategy,
    errors,
  } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'rewrite',
      schemaName: 'standalone_question',
      schema: rewriteSchema,
      system:
        'Rewrite the last user question as a standalone question in its own language: replace pronouns and references ("it", "that", "the previous one", "它", "那个") with what they refer to in the conversation, and add what an elliptical follow-up leaves out. ' +
        'If it already stands alone, return it unchanged. Do not answer it.',
      prompt: `Conversation:\n${formatConversation(summary, state.history)}\n\nLast question: ${question}`,
    },
    (result) => result.standalone_question.trim(),
    // The model failed: the offline strategy, behind its own gate.
    () =>
      needsRewrite(question, state.history, summary) ? rewriteOffline(question, state.history, summary) : question,
  );
  return {
    update: { standalone_question: standalone, errors },
    summary: standalone === question ? `kept (${strategy}): the question stands alone` : `rewritten: ${standalone}`,
  };
}

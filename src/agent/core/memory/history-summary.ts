import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { generateStructured } from '../../../models/chat/structured-output.ts';
import type { Turn } from '../../../domain/turn.ts';
import { identifiersIn } from '../../../text/text-heuristics.ts';
import { formatHistory } from '../llm-prompts.ts';

/** Upper bound of the running summary, in characters: it travels in every later prompt of the thread. */
export const SUMMARY_MAX_CHARS = 1200;
const MAX_QUESTIONS = 8;
const MAX_QUESTION_CHARS = 160;
const MAX_IDENTIFIERS = 20;
const QUESTION_PREFIX = '- The user asked: ';
const NAMED_PREFIX = 'Named earlier (most recent first): ';
const HEADER = 'Earlier in this conversation (summarised):';

/** The turns beyond the window, oldest first, and the window itself. */
export function splitAtWindow(history: readonly Turn[], window: number): { older: Turn[]; recent: Turn[] } {
  const cut = Math.max(0, history.length - Math.max(0, window));
  return { older: history.slice(0, cut), recent: history.slice(cut) };
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/**
 * Offline: the earlier questions (most recent kept) and the identifiers the folded turns named, merged into the
 * previous summary. Extractive, so a later rewrite can still resolve "it" to an entity named before the window.
 */
export function summarizeOffline(previous: string, older: readonly Turn[]): string {
  const lines = previous.split('\n');
  const questions = [
    ...lines.filter((line) => line.startsWith(QUESTION_PREFIX)).map((line) => line.slice(QUESTION_PREFIX.length)),
    ...older
      .filter((turn) => turn.role === 'user')
      .map((turn) => clip(turn.content.replace(/\s+/g, ' ').trim(), MAX_QUESTION_CHARS)),
  ].slice(-MAX_QUESTIONS);
  const earlierIds = identifiersIn(
    lines.find((line) => line.startsWith(NAMED_PREFIX))?.slice(NAMED_PREFIX.length) ?? '',
  );
  const newIds = [...older].reverse().flatMap((turn) => identifiersIn(turn.content));
  const identifiers = [...new Set([...newIds, ...earlierIds])].slice(0, MAX_IDENTIFIERS);
  const out = [
    HEADER,
    ...questions.map((q) => `${QUESTION_PREFIX}${q}`),
    ...(identifiers.length ? [`${NAMED_PREFIX}${identifiers.join(', ')}`] : []),
  ];
  // Drop the oldest questions first until the bound holds; the identifiers line is what resolves references.
  while (out.join('\n').length > SUMMARY_MAX_CHARS && out.length > 2 && out[1]?.startsWith(QUESTION_PREFIX))
    out.splice(1, 1);
  return clip(out.join('\n'), SUMMARY_MAX_CHARS);
}

/** The identifiers a summary names, most recent first (what the offline rewrite falls back to). */
export const summaryIdentifiers = (summary: string): string[] =>
  identifiersIn(
    summary
      .split('\n')
      .find((line) => line.startsWith(NAMED_PREFIX))
      ?.slice(NAMED_PREFIX.length) ?? summary,
  );

const summarySchema = z.object({ summary: z.string().min(1) });

/**
 * Folds the turns that left the window into the running summary. With a model: a summarisation prompt; when it
 * fails (an error, an invalid answer) the offline summary is used, so memory never breaks a run.
 */
export async function foldIntoSummary(
  previous: string,
  older: readonly Turn[],
  chat: { model: BaseChatModel } | undefined,
  maxRetries: number,
): Promise<{ summary: string; strategy: 'model' | 'offline' | 'offline-fallback' }> {
  if (older.length === 0) return { summary: previous, strategy: 'offline' };
  if (!chat) return { summary: summarizeOffline(previous, older), strategy: 'offline' };
  try {
    const result = await generateStructured({
      model: chat.model,
      schema: summarySchema,
      name: 'history_summary',
      maxRetries,
      messages: [
        new SystemMessage(
          `Update the running summary of a conversation with the turns below. Keep what later questions may refer to: the entities, identifiers, names and facts discussed, and what the user asked. Be brief (at most ${SUMMARY_MAX_CHARS} characters). Do not add anything that was not said.`,
        ),
        new HumanMessage(`Summary so far:\n${previous || '(none)'}\n\nTurns to fold in:\n${formatHistory(older)}`),
      ],
    });
    return { summary: clip(result.summary.trim(), SUMMARY_MAX_CHARS), strategy: 'model' };
  } catch {
    return { summary: summarizeOffline(previous, older), strategy: 'offline-fallback' };
  }
}

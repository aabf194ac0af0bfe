import type { RecordedCall, ScriptedAnswer } from './recording-chat-model.ts';

/**
 * Replies a test scripts for the `rag` agent's model steps, read from the prompt the way a model would, so a script
 * names what the model decided without repeating the prompt's text.
 */

/** The question a step's prompt asks (its last `Question: …`), or its last line. */
export const questionIn = (call: RecordedCall): string =>
  [...call.prompt.matchAll(/Question: ([^\n]+)/g)].at(-1)?.[1]?.trim() ?? call.prompt.trim().split('\n').at(-1) ?? '';

/** decompose: the model keeps the question as one information need. */
export const oneNeed = (call: RecordedCall): ScriptedAnswer => ({ sub_questions: [questionIn(call)] });

/** decompose: the model splits the question into these sub-questions. */
export const needs =
  (...subQuestions: string[]) =>
  (): ScriptedAnswer => ({ sub_questions: subQuestions });

/** route_question: the model sends the question to the tables or to retrieval. */
export const routeTo =
  (route: 'table' | 'retrieve', reason = `the model chose ${route}`) =>
  (): ScriptedAnswer => ({ route, reason });

/**
 * Standing replies for rag's planning steps (decompose keeps one need, route_question retrieves), for tests about
 * something else: `new RecordingChatModel(script, { standing: RAG_PLANNING })`.
 */
export const RAG_PLANNING = { sub_questions: oneNeed, route: routeTo('retrieve') };

/** The evidence ids the prompt shows (`[chunk_id: …]` headers), in order. */
export const chunkIdsIn = (call: RecordedCall): string[] =>
  [...call.prompt.matchAll(/\[chunk_id: ([^\]]+)\] \[doc_id:/g)].map((match) => match[1] as string);

/** The text of the passage shown under `chunkId` in the prompt (up to the next passage header or a blank line and a label). */
export function passageIn(call: RecordedCall, chunkId: string): string {
  const start = call.prompt.indexOf(`[chunk_id: ${chunkId}]`);
  if (start < 0) return '';
  const body = call.prompt.slice(call.prompt.indexOf('\n', start) + 1);
  return body.split(/\n\n(?=\[chunk_id:|\S+:)/)[0] ?? '';
}

/** The first evidence passage of the prompt that contains `words`, with its id: what an extracting model would quote. */
export function passageWith(
  call: RecordedCall,
  words: string,
): { chunk_id: string; doc_id: string; text: string } | undefined {
  for (const match of call.prompt.matchAll(/\[chunk_id: ([^\]]+)\] \[doc_id: ([^\]]+)\]/g)) {
    const text = passageIn(call, match[1] as string);
    if (text.includes(words)) return { chunk_id: match[1] as string, doc_id: match[2] as string, text };
  }
  return undefined;
}

/**
 * check_answerability: the model extracts the sentence containing `words` (by the id of the passage it is in) and
 * judges it with `sufficiency`; with no passage containing `words`, it extracts nothing.
 */
export const extractAndJudge =
  (words: string, sufficiency: number, missing: string[] = []) =>
  (call: RecordedCall): ScriptedAnswer => {
    const passage = passageWith(call, words);
    const sentence = passage?.text.split(/(?<=[.!?。])\s+/).find((s) => s.includes(words));
    return {
      supporting: passage && sentence ? [{ chunk_id: passage.chunk_id, sentence: sentence.trim() }] : [],
      sufficiency,
      reasons: passage ? [`the evidence states ${words}`] : ['no passage states it'],
      missing_information: missing,
    };
  };

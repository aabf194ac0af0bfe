import { isPendingAction, type PendingAction } from '../../../domain/approval.ts';
import { answerSchema, type Answer } from '../../../domain/answer.ts';
import type { RunEventRecord, RunRecordStatus } from '../../../store/store.ts';
import { partialStringField } from './partial-json-field.ts';

/** How a run ended, as a chat completion reports it: read from the run's own recorded events. */
export interface CompletionOutcome {
  status: RunRecordStatus;
  answer?: Answer;
  pendingAction?: PendingAction;
  /** Why a failed or cancelled run did not answer (its public error). */
  error?: { code: string; message: string };
}

/** A piece of the reply: answer text as it becomes known, then how the run ended. */
export type CompletionPart = { kind: 'text'; text: string } | { kind: 'end'; outcome: CompletionOutcome };

/** Said before the final answer when the text already streamed was not what the run ended with. */
export const REVISED_NOTE = '(Revised after the checks, the final answer:)';

const RUN_STATUSES: readonly RunRecordStatus[] = [
  'running',
  'answered',
  'refused',
  'failed',
  'interrupted',
  'cancelled',
];

const answerOf = (values: Record<string, unknown>): Answer | undefined => {
  const parsed = answerSchema.safeParse(values.answer);
  return parsed.success ? parsed.data : undefined;
};

const pendingActionOf = (values: Record<string, unknown>): PendingAction | undefined => {
  const interrupts = values.__interrupt__;
  if (!Array.isArray(interrupts)) return undefined;
  return interrupts.map((item: { value?: unknown }) => item?.value).find(isPendingAction);
};

/** The text of a recorded `messages` event's message (string content, or its text parts). */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

/** Splits text into word-sized pieces (whitespace kept), so an answer known whole still arrives as a stream. */
export const wordPieces = (text: string): string[] => text.match(/\s*\S+|\s+$/g) ?? [];

/**
 * Turns a run's recorded events into a chat reply. With a chat model the agents write the answer contract as JSON
 * through the `messages` stream, so the `answer` field's words are passed on as they are written (the first model
 * message that writes one; later attempts are retries). Without live tokens (offline strategies) the final
 * answer's text follows in word pieces when the final values arrive. If the final answer differs from what was
 * already passed on (a citation retry, a refusal after the checks), the final answer follows after REVISED_NOTE:
 * what was sent cannot be taken back.
 */
export async function* completionParts(events: AsyncIterable<RunEventRecord>): AsyncGenerator<CompletionPart> {
  const messageTexts = new Map<string, string>();
  let liveMessage: string | undefined;
  let sent = '';
  let answered = false;
  let values: Record<string, unknown> = {};
  let error: CompletionOutcome['error'];

  function* finalText(answer: Answer): Generator<CompletionPart> {
    answered = true;
    const text = answer.answer;
    if (text.startsWith(sent)) {
      for (const piece of wordPieces(text.slice(sent.length))) yield { kind: 'text', text: piece };
    } else {
      yield { kind: 'text', text: `\n\n${REVISED_NOTE}\n` };
      for (const piece of wordPieces(text)) yield { kind: 'text', text: piece };
    }
    sent = text;
  }

  for await (const event of events) {
    if (event.event === 'messages' && !answered && Array.isArray(event.data)) {
      const [message, metadata] = event.data as [
        { type?: string; id?: string | null; content?: unknown },
        Record<string, unknown>,
      ];
      const key = message?.id ?? String(metadata?.langgraph_checkpoint_ns ?? metadata?.langgraph_node ?? '');
      // Chunks add to the message; a whole message (a model call that did not stream) replaces it.
      const text =
        (message?.type === 'AIMessageChunk' ? (messageTexts.get(key) ?? '') : '') + messageText(message?.content);
      messageTexts.set(key, text);
      const written = partialStringField(text, 'answer');
      if (written === undefined) continue;
      liveMessage ??= key;
      if (key !== liveMessage || written.length <= sent.length || !written.startsWith(sent)) continue;
      yield { kind: 'text', text: written.slice(sent.length) };
      sent = written;
    } else if (event.event === 'values' && event.data && typeof event.data === 'object') {
      values = event.data as Record<string, unknown>;
      const answer = answerOf(values);
      // An agent's status field leaves `running` once its answer is final (rag: at finalize, or refuse).
      const settled = typeof values.status === 'string' && values.status !== 'running';
      if (answer && settled && !answered) yield* finalText(answer);
    } else if (event.event === 'error') {
      const data = event.data as { error?: unknown; message?: unknown };
      error = { code: String(data.error ?? 'run_failed'), message: String(data.message ?? 'The run failed.') };
    } else if (event.event === 'end') {
      const recorded = (event.data as { status?: RunRecordStatus }).status;
      const status = recorded && RUN_STATUSES.includes(recorded) ? recorded : 'failed';
      const answer = answerOf(values);
      if (answer && !answered && status !== 'failed' && status !== 'cancelled') yield* finalText(answer);
      const pendingAction = pendingActionOf(values);
      const runError = (values.errors as { code?: string; message?: string }[] | undefined)?.[0];
      if (!error && status === 'failed' && runError?.message)
        error = { code: runError.code ?? 'run_failed', message: runError.message };
      yield {
        kind: 'end',
        outcome: {
          status,
          ...(answer ? { answer } : {}),
          ...(pendingAction ? { pendingAction } : {}),
          ...(error ? { error } : {}),
        },
      };
      return;
    }
  }
}

import { z } from 'zod';
import { approvalDecisionSchema } from '../../../domain/approval.ts';
import type { RunAction } from '../../../runs/run-request.ts';
import type { Turn } from '../../../domain/turn.ts';
import type { LimitsConfig } from '../../../config/index.ts';
import { ValidationError } from '../../../errors/index.ts';
import { assertMessagesWithin, assertMetadataWithin, assertQuestionWithin } from '../../request-limits.ts';
import { STREAM_MODES, type StreamMode } from '../../sse.ts';
import { MULTITASK_STRATEGIES } from '../../../store/store.ts';

/** A chat message as LangGraph clients send it: `role` (OpenAI style) or `type` (LangChain style); text or text parts. */
export const chatMessageSchema = z.looseObject({
  // Bounded: an unknown role is quoted back in the error.
  role: z.string().max(64).optional(),
  type: z.string().max(64).optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
});
export type ChatMessageInput = z.infer<typeof chatMessageSchema>;

const streamModeSchema = z.enum(STREAM_MODES);

/** The body of a run create / stream / wait request (LangGraph API); unknown fields are the SDK's defaults and ignored. */
export const runBodySchema = z.looseObject({
  assistant_id: z
    .string()
    .min(1, 'name the assistant (an agent: rag, …)')
    .max(128, 'an assistant name has at most 128 characters'),
  input: z
    .union([z.looseObject({ messages: z.array(chatMessageSchema).min(1) }), z.looseObject({ question: z.string() })])
    .nullish(),
  command: z.looseObject({ resume: approvalDecisionSchema }).nullish(),
  stream_mode: z.union([streamModeSchema, z.array(streamModeSchema)]).nullish(),
  if_not_exists: z.enum(['create', 'reject']).nullish(),
  on_disconnect: z.enum(['cancel', 'continue']).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  /** Time travel: run from this checkpoint of the thread (`GET /threads/<id>/history` lists them). */
  checkpoint_id: z.string().min(1).max(200).nullish(),
  checkpoint: z.looseObject({ checkpoint_id: z.string().min(1).max(200) }).nullish(),
  /** A URL the run's end is POSTed to, signed; checked against the `webhooks` settings before the run starts. */
  webhook: z.string().max(4096, 'a webhook URL has at most 2048 characters').nullish(),
  /** Double-texting: what the run does when the thread is busy (LangGraph's default is `reject`). */
  multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
});
export type RunBody = z.infer<typeof runBodySchema>;

/** Features of the LangGraph API this server does not offer: refused by name rather than silently ignored. */
const UNSUPPORTED = ['interrupt_before', 'interrupt_after', 'after_seconds'] as const;

const textOf = (content: ChatMessageInput['content']) =>
  typeof content === 'string'
    ? content
    : content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');

const roleOf = (message: ChatMessageInput): Turn['role'] | 'system' | undefined => {
  const role = message.role ?? message.type;
  if (role === 'user' || role === 'human') return 'user';
  if (role === 'assistant' || role === 'ai') return 'assistant';
  if (role === 'system' || role === 'developer') return 'system';
  return undefined;
};

/**
 * The chat convention: the last message is the user's question; earlier user/assistant turns are history. The
 * message count and the question's length are within `limits` (the body's size bounds the history).
 */
export function questionFromMessages(
  messages: readonly ChatMessageInput[],
  limits: LimitsConfig,
): { question: string; history: Turn[] } {
  assertMessagesWithin(messages.length, limits);
  const turns: Turn[] = [];
  for (const message of messages) {
    const role = roleOf(message);
    if (!role)
      throw new ValidationError(`Unknown message role ${JSON.stringify(message.role ?? message.type)}.`, {
        hint: 'Use user/human, assistant/ai or system.',
      });
    if (role !== 'system') turns.push({ role, content: textOf(message.content) });
  }
  const last = turns.pop();
  if (!last || last.role !== 'user' || !last.content.trim()) {
    throw new ValidationError('The last message must be a non-empty user message: it is the question.', {
      hint: 'Send {"messages": [{"role": "user", "content": "…"}]}.',
    });
  }
  const question = last.content.trim();
  assertQuestionWithin(question, limits);
  return { question, history: turns };
}

/**
 * What the body asks for: a question (from `input`), a decision on a pending action (from `command.resume`), or,
 * with a checkpoint, time travel: a new question from the end of a run, or a replay (`input: null`) from mid-run.
 */
export function runActionOf(body: RunBody, limits: LimitsConfig): RunAction {
  assertMetadataWithin(body.metadata, limits);
  const unsupported = UNSUPPORTED.find((field) => (body as Record<string, unknown>)[field] != null);
  if (unsupported)
    throw new ValidationError(`${unsupported} is not supported by this server.`, {
      hint: `Remove ${unsupported} from the request.`,
    });
  if (body.command && body.input)
    throw new ValidationError('Send either input (a question) or command (a decision), not both.');
  const checkpointId = body.checkpoint_id ?? body.checkpoint?.checkpoint_id;
  if (checkpointId) {
    if (body.command)
      throw new ValidationError('A decision resumes the thread where it waits; it takes no checkpoint.', {
        hint: 'Remove checkpoint_id.',
      });
    return body.input
      ? { kind: 'fork', checkpointId, question: askOf(body.input, limits).question }
      : { kind: 'fork', checkpointId };
  }
  if (body.command) return { kind: 'resume', decision: body.command.resume };
  if (!body.input) {
    throw new ValidationError(
      'A run needs input: {"messages": [{"role": "user", "content": "…"}]} or {"question": "…"}.',
      {
        hint: 'To answer a pending approval, send command: {"resume": {"decision": "approve"}} instead.',
      },
    );
  }
  return askOf(body.input, limits);
}

function askOf(input: NonNullable<RunBody['input']>, limits: LimitsConfig): Extract<RunAction, { kind: 'ask' }> {
  if ('messages' in input)
    return { kind: 'ask', ...questionFromMessages(input.messages as ChatMessageInput[], limits) };
  const question = String(input.question).trim();
  if (!question)
    throw new ValidationError('The question is empty.', { hint: 'Send {"question": "…"} with some text.' });
  assertQuestionWithin(question, limits);
  return { kind: 'ask', question, history: [] };
}

/** The requested stream modes; LangGraph's default is `values`. */
export function streamModesOf(body: Pick<RunBody, 'stream_mode'>): StreamMode[] {
  const mode = body.stream_mode;
  if (!mode) return ['values'];
  return Array.isArray(mode) ? mode : [mode];
}

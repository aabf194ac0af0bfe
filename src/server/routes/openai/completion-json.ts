import type { RunRecord } from '../../../store/store.ts';

/**
 * Zeros, always: an agent run makes several model calls (or none, offline) and Evident does not count their
 * tokens, so it reports none rather than an estimate.
 */
export const UNCOUNTED_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } as const;

const completionId = (run: RunRecord) => `chatcmpl-${run.runId}`;
const createdOf = (run: RunRecord) => Math.floor(Date.parse(run.startedAt) / 1000);

/** A non-streamed reply (`chat.completion`). */
export function completionJson(run: RunRecord, content: string, evident: Record<string, unknown>) {
  return {
    id: completionId(run),
    object: 'chat.completion',
    created: createdOf(run),
    model: run.agent,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null },
    ],
    usage: UNCOUNTED_USAGE,
    evident,
  };
}

export interface ChunkFields {
  delta?: { role?: 'assistant'; content?: string };
  finishReason?: 'stop';
  evident?: Record<string, unknown>;
}

/** One streamed piece (`chat.completion.chunk`); every chunk of a reply has the same id. */
export function chunkJson(run: RunRecord, fields: ChunkFields) {
  return {
    id: completionId(run),
    object: 'chat.completion.chunk',
    created: createdOf(run),
    model: run.agent,
    choices: [{ index: 0, delta: fields.delta ?? {}, finish_reason: fields.finishReason ?? null, logprobs: null }],
    ...(fields.evident ? { evident: fields.evident } : {}),
  };
}

/** The usage chunk a client asked for with `stream_options.include_usage`: no choices, after the last one. */
export function usageChunkJson(run: RunRecord) {
  return {
    id: completionId(run),
    object: 'chat.completion.chunk',
    created: createdOf(run),
    model: run.agent,
    choices: [],
    usage: UNCOUNTED_USAGE,
  };
}

/** The agents as OpenAI models. */
export const modelJson = (name: string) => ({ id: name, object: 'model', created: 0, owned_by: 'evident' });

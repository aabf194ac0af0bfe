import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { Logger } from '../../../logging/logger.ts';
import type { RunRecord } from '../../../store/store.ts';
import type { ServerEnv } from '../../server-env.ts';
import { closingText, evidentExtension } from './completion-content.ts';
import { chunkJson, usageChunkJson } from './completion-json.ts';
import { completionParts, type CompletionOutcome } from './completion-parts.ts';
import { openAiErrorBody, openAiErrorResponse } from './openai-error.ts';

export interface CompletionStreamOptions {
  heartbeatMs: number;
  /** `stream_options.include_usage`: a last chunk with (uncounted, zero) usage. */
  includeUsage: boolean;
  logger: Logger;
}

/** A run that ended without an answer, as OpenAI reports a failure: an error object, naming where the run is recorded. */
export function runFailureBody(run: RunRecord, outcome: CompletionOutcome) {
  const message =
    outcome.error?.message ?? (outcome.status === 'cancelled' ? 'The run was cancelled.' : 'The run failed.');
  const where = `The run is recorded: GET /threads/${run.threadId}/runs/${run.runId}.`;
  return openAiErrorBody(outcome.error?.code ?? `run_${outcome.status}`, message, where, 500);
}

export const endedWithoutAnswer = (outcome: CompletionOutcome) =>
  outcome.status === 'failed' || outcome.status === 'cancelled';

/**
 * Streams a run as OpenAI's `chat.completion.chunk` events: the assistant role, the answer text as it becomes known,
 * its sources (or the approval it waits for), a last chunk with `finish_reason` and Evident's extension, then
 * `[DONE]`. A client that disconnects stops only its own stream: the run goes on and is recorded, and its answer
 * can be read later from the LangGraph API (`GET /threads/{thread}/runs/{run}/join`, ids in the response headers).
 */
export function streamCompletion(
  c: Context<ServerEnv>,
  runs: RunManager,
  run: RunRecord,
  options: CompletionStreamOptions,
): Response {
  const where = { threadId: run.threadId, agent: run.agent };
  return streamSSE(
    c,
    async (stream) => {
      const disconnected = new AbortController();
      stream.onAbort(() => disconnected.abort());
      // Comment lines keep proxies and clients from closing the connection while a step takes long.
      const heartbeat = setInterval(
        () => void stream.write(': keep-alive\n\n').catch(() => undefined),
        options.heartbeatMs,
      );
      const send = (data: unknown) => stream.writeSSE({ data: JSON.stringify(data) });
      try {
        await send(chunkJson(run, { delta: { role: 'assistant', content: '' } }));
        for await (const part of completionParts(runs.events(run.runId, 0, disconnected.signal, c.get('principal')))) {
          if (part.kind === 'text') {
            await send(chunkJson(run, { delta: { content: part.text } }));
            continue;
          }
          const { outcome } = part;
          if (endedWithoutAnswer(outcome)) {
            await send(runFailureBody(run, outcome));
            break;
          }
          const closing = closingText(outcome, where);
          if (closing) await send(chunkJson(run, { delta: { content: closing } }));
          await send(chunkJson(run, { finishReason: 'stop', evident: evidentExtension(outcome, run) }));
          if (options.includeUsage) await send(usageChunkJson(run));
        }
        if (!disconnected.signal.aborted) await stream.writeSSE({ data: '[DONE]' });
      } finally {
        clearInterval(heartbeat);
      }
    },
    async (error, stream) => {
      const { status, body } = openAiErrorResponse(error);
      if (status >= 500)
        options.logger.error('chat completion stream failed', { run_id: run.runId, error: String(error) });
      await stream.writeSSE({ data: JSON.stringify(body) });
    },
  );
}

import { Hono } from 'hono';
import { z } from 'zod';
import { InputTooLargeError, isEvidentError, ValidationError } from '../../../errors/index.ts';
import type { RunAction } from '../../../runs/run-request.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { RunRecord } from '../../../store/store.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import { runJson } from './api-json.ts';
import { runActionOf, runBodySchema, type RunBody } from './run-body.ts';
import { startLangGraphRun } from './run-start.ts';

export interface RunBatchRouteOptions {
  /** The most runs one batch may ask for (the server's `runs.maxConcurrentPerUser`: more could never all run at once). */
  maxBatchRuns: number;
  /** The setting that raises it, named in the refusal. */
  setting: string;
}

/** The body of `POST /runs/batch`: an array of stateless run payloads (each read like `POST /runs`'s body). */
export const runBatchSchema = z.array(runBodySchema);

/** One payload of the batch read like `POST /runs`'s body; a refusal names the payload by its index. */
function payloadOf(
  raw: unknown,
  index: number,
  limits: ReturnType<typeof requestLimits>,
): { body: RunBody; action: RunAction } {
  const parsed = runBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Bounded: a path is made of the client's keys.
    const where = issue?.path.length ? `.${issue.path.join('.').slice(0, 200)}` : '';
    throw new ValidationError(`Invalid request at [${index}]${where}: ${issue?.message ?? 'invalid'}.`, {
      hint: 'No run of the batch was started: fix that payload and send the batch again.',
      details: { batch_index: index },
    });
  }
  try {
    return { body: parsed.data, action: runActionOf(parsed.data, limits) };
  } catch (error) {
    if (!isEvidentError(error) || error.category !== 'user') throw error;
    throw new ValidationError(`Run [${index}] of the batch: ${error.message}`, {
      hint: `${error.hint ? `${error.hint} ` : ''}No run of the batch was started.`,
      details: { ...error.details, batch_index: index, reason: error.code },
      cause: error,
    });
  }
}

/**
 * LangGraph's `POST /runs/batch` (the SDK's `runs.createBatch`): several stateless runs in one request, each on a
 * new thread, answered with the runs in the order asked. As LangGraph validates the whole array before it creates a
 * run, every payload is read (schema, input, limits) before the first starts: one invalid payload refuses the batch
 * (400, naming its index) and starts nothing. A start refused afterwards (an unknown assistant, a webhook the
 * settings refuse, too many runs) cancels the runs the batch had started, then answers that refusal as `POST /runs`
 * would (LangGraph would leave them running, unseen by the client).
 */
export function runBatchRoutes(runs: RunManager, options: RunBatchRouteOptions): Hono<ServerEnv> {
  return new Hono<ServerEnv>().post('/runs/batch', async (c) => {
    const raw = await readJson(
      c,
      z.array(z.unknown(), { error: 'send a JSON array of run payloads, e.g. [{"assistant_id": "rag", "input": …}]' }),
    );
    if (raw.length === 0)
      throw new ValidationError('The batch is empty.', {
        hint: 'Send a JSON array of one or more run payloads, each like the body of POST /runs.',
      });
    if (raw.length > options.maxBatchRuns)
      throw new InputTooLargeError({
        what: 'the batch',
        unit: 'runs',
        limit: options.maxBatchRuns,
        actual: raw.length,
        setting: options.setting,
        fix: 'Send the runs in several batches',
      });
    const limits = requestLimits(c);
    const payloads = raw.map((payload, index) => payloadOf(payload, index, limits));
    const principal = c.get('principal');
    const started: RunRecord[] = [];
    try {
      for (const { body, action } of payloads)
        started.push(await startLangGraphRun(runs, principal, undefined, body, action));
    } catch (error) {
      await Promise.all(started.map((run) => runs.cancel(run.threadId, run.runId, principal).catch(() => false)));
      throw error;
    }
    return c.json(started.map(runJson));
  });
}

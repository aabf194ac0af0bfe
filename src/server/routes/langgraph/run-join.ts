import type { Context } from 'hono';
import { z } from 'zod';
import type { RunManager } from '../../../runs/run-manager.ts';
import { ValidationError } from '../../../errors/index.ts';
import type { RunLog, RunRecord } from '../../../store/store.ts';
import type { ServerEnv } from '../../server-env.ts';
import { lastEventId, STREAM_MODES, streamRunEvents, type StreamMode } from '../../sse.ts';
import { joinModesOf } from './join-modes.ts';

const joinQuerySchema = z.object({
  stream_mode: z.union([z.enum(STREAM_MODES), z.array(z.enum(STREAM_MODES))]).optional(),
  cancel_on_disconnect: z.enum(['0', '1', 'true', 'false']).optional(),
});

/** Streams one run's events to a client that may read it; `cancelOnDisconnect` cancels the run as the reader. */
export function runEventsResponse(
  c: Context<ServerEnv>,
  runs: RunManager,
  run: RunRecord,
  options: { modes: readonly StreamMode[]; cancelOnDisconnect: boolean; afterSeq?: number; heartbeatMs: number },
): Response {
  return streamRunEvents(c, runs, {
    runId: run.runId,
    reader: c.get('principal'),
    afterSeq: options.afterSeq ?? 0,
    modes: options.modes,
    heartbeatMs: options.heartbeatMs,
    ...(options.cancelOnDisconnect
      ? { onDisconnect: () => void runs.cancel(run.threadId, run.runId, c.get('principal')).catch(() => undefined) }
      : {}),
  });
}

/**
 * A join of a run's stream (`GET /threads/{id}/runs/{run}/stream`, and `GET /runs/{run}/stream` by the run's id alone):
 * the query's `stream_mode` (default every mode the run recorded) and `cancel_on_disconnect`, replayed after the
 * client's `Last-Event-ID`. The caller has checked that the client may read `run`.
 */
export async function joinRunStream(
  c: Context<ServerEnv>,
  runs: RunManager,
  store: Pick<RunLog, 'listRunEvents'>,
  run: RunRecord,
  heartbeatMs: number,
): Promise<Response> {
  const parsed = joinQuerySchema.safeParse({
    stream_mode: c.req.queries('stream_mode'),
    cancel_on_disconnect: c.req.query('cancel_on_disconnect'),
  });
  if (!parsed.success)
    throw new ValidationError(`Invalid query: ${parsed.error.issues[0]?.message ?? 'invalid'}.`, {
      hint: `stream_mode is one of ${STREAM_MODES.join(', ')}.`,
    });
  const query = parsed.data;
  const cancelOnDisconnect = query.cancel_on_disconnect === '1' || query.cancel_on_disconnect === 'true';
  // A join without modes gets every mode the run recorded; one asking for a mode it did not record is refused.
  const modes = await joinModesOf(store, run.runId, query.stream_mode);
  return runEventsResponse(c, runs, run, { modes, cancelOnDisconnect, afterSeq: lastEventId(c), heartbeatMs });
}

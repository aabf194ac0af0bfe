import { Hono } from 'hono';
import { NotFoundError } from '../../../errors/index.ts';
import { readableRun, readableThread } from '../../../runs/run-access.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import type { PrincipalStore, RunLog } from '../../../store/store.ts';
import type { ServerEnv } from '../../server-env.ts';
import { joinRunStream } from './run-join.ts';
import { streamThreadEvents, threadStreamModesOf, threadStreamStartOf } from './thread-event-stream.ts';

export interface RunJoinRouteOptions {
  heartbeatMs: number;
  /** How often a thread stream with no run to stream looks for the thread's next run (default 250 ms). */
  threadPollMs?: number;
}

/**
 * Joins the SDK makes without naming a run's thread: `GET /runs/{run_id}/stream` (`runs.joinStream(null, runId)`),
 * the run's stream found by its id alone, and `GET /threads/{thread_id}/stream` (`threads.joinStream`), the
 * thread's runs' events one run after the other. A run or thread the key may not read answers as a missing one.
 */
export function runJoinRoutes(
  runs: RunManager,
  store: RunLog & Pick<PrincipalStore, 'getUser'>,
  options: RunJoinRouteOptions,
): Hono<ServerEnv> {
  return new Hono<ServerEnv>()
    .get('/runs/:runId/stream', async (c) => {
      const runId = c.req.param('runId');
      const stored = await store.getRun(runId);
      // Another user's run is `not_found` for the run, exactly as an id no run has (never the thread's error).
      const run = stored
        ? await readableRun(store, stored.threadId, runId, c.get('principal')).catch(() => undefined)
        : undefined;
      if (!run) throw new NotFoundError('run', runId);
      // Where the SDK finds the run, and reconnects (with `Last-Event-ID`) if the connection drops before its end.
      const path = `/threads/${run.threadId}/runs/${run.runId}`;
      c.header('Content-Location', path);
      c.header('Location', `${path}/stream`);
      return joinRunStream(c, runs, store, run, options.heartbeatMs);
    })
    .get('/threads/:threadId/stream', async (c) => {
      const threadId = c.req.param('threadId');
      await readableThread(store, threadId, c.get('principal'));
      const modes = threadStreamModesOf(c.req.queries('stream_mode'));
      c.header('Location', `/threads/${threadId}/stream`);
      return streamThreadEvents(c, runs, store, {
        threadId,
        reader: c.get('principal'),
        modes,
        start: threadStreamStartOf(c.req.header('last-event-id')),
        heartbeatMs: options.heartbeatMs,
        pollMs: options.threadPollMs ?? 250,
      });
    });
}

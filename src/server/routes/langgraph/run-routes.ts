import type { Context } from 'hono';
import { Hono } from 'hono';
import { readableRun, readableThread } from '../../../runs/run-access.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import { RunNotRunningError } from '../../../errors/index.ts';
import type { RunLog, RunRecord } from '../../../store/store.ts';
import { readJson, requestLimits } from '../../read-json.ts';
import type { ServerEnv } from '../../server-env.ts';
import type { StreamMode } from '../../sse.ts';
import { runJson, threadStateJson } from './api-json.ts';
import { runActionOf, runBodySchema, streamModesOf, type RunBody } from './run-body.ts';
import { joinRunStream, runEventsResponse } from './run-join.ts';
import { startLangGraphRun } from './run-start.ts';
import { cancelActionOf, runCancelRoutes } from './run-cancel-routes.ts';

export interface RunRouteOptions {
  /** Interval of the SSE comment lines that keep an idle stream open. */
  heartbeatMs: number;
}

/**
 * Runs, the LangGraph API way: create (background), stream (SSE, replayable by `Last-Event-ID` from the stored
 * log), wait, join, cancel, list. A thread-less run (`/runs/…`) gets a new thread, kept so it can be audited.
 */
export function runRoutes(runs: RunManager, store: RunLog, options: RunRouteOptions): Hono<ServerEnv> {
  const start = async (c: Context<ServerEnv>, threadId: string | undefined, body: RunBody): Promise<RunRecord> => {
    const run = await startLangGraphRun(runs, c.get('principal'), threadId, body, runActionOf(body, requestLimits(c)));
    // Where the SDK finds the run (Content-Location) and reconnects to its stream (Location), relative to the API root.
    const path = `/threads/${run.threadId}/runs/${run.runId}`;
    c.header('Content-Location', path);
    c.header('Location', `${path}/stream`);
    return run;
  };

  const stream = (c: Context<ServerEnv>, run: RunRecord, modes: readonly StreamMode[], cancelOnDisconnect: boolean) =>
    runEventsResponse(c, runs, run, { modes, cancelOnDisconnect, heartbeatMs: options.heartbeatMs });

  /** The thread's values once the run has ended: what `runs/wait` and `join` return (an `__error__` for a failed run). */
  const finalValues = async (c: Context<ServerEnv>, run: RunRecord) => {
    const signal = c.req.raw.signal;
    const ended = (await runs.wait(run.runId, signal)) ?? run;
    const { agent, snapshot } = await runs.threadState(run.threadId, c.get('principal'));
    const state = threadStateJson(agent, snapshot);
    if (ended.status !== 'failed' && ended.status !== 'cancelled') return state.values;
    return {
      ...state.values,
      __error__: {
        error: ended.status === 'failed' ? 'RunFailed' : 'RunCancelled',
        message: ended.error ?? ended.status,
      },
    };
  };

  const wantsCancelOnDisconnect = (body: RunBody) => body.on_disconnect === 'cancel';

  return new Hono<ServerEnv>()
    .post('/threads/:threadId/runs', async (c) =>
      c.json(runJson(await start(c, c.req.param('threadId'), await readJson(c, runBodySchema)))),
    )
    .post('/runs', async (c) => c.json(runJson(await start(c, undefined, await readJson(c, runBodySchema)))))
    .post('/threads/:threadId/runs/stream', async (c) => {
      const body = await readJson(c, runBodySchema);
      return stream(
        c,
        await start(c, c.req.param('threadId'), body),
        streamModesOf(body),
        wantsCancelOnDisconnect(body),
      );
    })
    .post('/runs/stream', async (c) => {
      const body = await readJson(c, runBodySchema);
      return stream(c, await start(c, undefined, body), streamModesOf(body), wantsCancelOnDisconnect(body));
    })
    .post('/threads/:threadId/runs/wait', async (c) => {
      const body = await readJson(c, runBodySchema);
      return c.json(await finalValues(c, await start(c, c.req.param('threadId'), body)));
    })
    .post('/runs/wait', async (c) => {
      const body = await readJson(c, runBodySchema);
      return c.json(await finalValues(c, await start(c, undefined, body)));
    })
    .get('/threads/:threadId/runs', async (c) => {
      const thread = await readableThread(store, c.req.param('threadId'), c.get('principal'));
      const limit = Math.min(Number(c.req.query('limit') ?? 10) || 10, 1000);
      const offset = Math.max(Number(c.req.query('offset') ?? 0) || 0, 0);
      // Newest first, as LangGraph lists them.
      // LangGraph's `status` filter (the SDK's `runs.list(threadId, { status })`), on the run's LangGraph status.
      const status = c.req.query('status');
      const list = (await store.listRuns(thread.threadId, thread.owner))
        .reverse()
        .map(runJson)
        .filter((run) => status === undefined || run.status === status);
      return c.json(list.slice(offset, offset + limit));
    })
    .get('/threads/:threadId/runs/:runId', async (c) =>
      c.json(runJson(await readableRun(store, c.req.param('threadId'), c.req.param('runId'), c.get('principal')))),
    )
    .get('/threads/:threadId/runs/:runId/stream', async (c) => {
      const run = await readableRun(store, c.req.param('threadId'), c.req.param('runId'), c.get('principal'));
      return joinRunStream(c, runs, store, run, options.heartbeatMs);
    })
    .get('/threads/:threadId/runs/:runId/join', async (c) => {
      const run = await readableRun(store, c.req.param('threadId'), c.req.param('runId'), c.get('principal'));
      return c.json(await finalValues(c, run));
    })
    .post('/threads/:threadId/runs/:runId/cancel', async (c) => {
      const threadId = c.req.param('threadId');
      const runId = c.req.param('runId');
      if (cancelActionOf(c) === 'rollback') {
        if (await runs.rollback(threadId, runId, c.get('principal'))) return c.body(null, 204);
        const run = await readableRun(store, threadId, runId, c.get('principal'));
        throw new RunNotRunningError(runId, run.status);
      }
      if (!(await runs.cancel(threadId, runId, c.get('principal')))) {
        const run = await readableRun(store, threadId, runId, c.get('principal'));
        throw new RunNotRunningError(runId, run.status);
      }
      return c.json(runJson(await readableRun(store, threadId, runId, c.get('principal'))));
    })
    .route('/', runCancelRoutes(runs, store));
}

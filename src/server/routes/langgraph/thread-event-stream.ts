import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Principal } from '../../../domain/index.ts';
import { ValidationError } from '../../../errors/index.ts';
import { publicErrorOf } from '../../../errors/public-error.ts';
import { currentPrincipal } from '../../../runs/current-principal.ts';
import { readableThread } from '../../../runs/run-access.ts';
import type { RunManager } from '../../../runs/run-manager.ts';
import { isRunFinished, type PrincipalStore, type RunEventRecord, type RunLog } from '../../../store/store.ts';

/** LangGraph's thread stream modes (the SDK's `ThreadStreamMode`). */
export const THREAD_STREAM_MODES = ['run_modes', 'lifecycle', 'state_update'] as const;
export type ThreadStreamMode = (typeof THREAD_STREAM_MODES)[number];

/** The events of a run each thread stream mode passes on. */
const LIFECYCLE = new Set(['metadata', 'error', 'end']);
const passes = (event: string, modes: ReadonlySet<ThreadStreamMode>): boolean =>
  modes.has('run_modes') ||
  (modes.has('lifecycle') && LIFECYCLE.has(event)) ||
  (modes.has('state_update') && event === 'values');

/** The thread stream modes of the query (`stream_mode`, repeatable); `run_modes` without any. */
export function threadStreamModesOf(asked: readonly string[] | undefined): Set<ThreadStreamMode> {
  if (!asked || asked.length === 0) return new Set(['run_modes']);
  const unknown = asked.find((mode) => !(THREAD_STREAM_MODES as readonly string[]).includes(mode));
  if (unknown !== undefined)
    throw new ValidationError(`Unknown thread stream mode ${JSON.stringify(unknown.slice(0, 64))}.`, {
      hint: `A thread stream's stream_mode is one of ${THREAD_STREAM_MODES.join(', ')}; a run's own modes are asked of GET /threads/{thread_id}/runs/{run_id}/stream.`,
    });
  return new Set(asked as ThreadStreamMode[]);
}

/** Where a thread stream starts: after an event of one of its runs, from its first run (`-`), or at its current run. */
export type ThreadStreamStart = { after: { runId: string; seq: number } } | { fromFirstRun: true } | { current: true };

/** A thread stream event's id: its run and its number in that run (`<run_id>:<seq>`), so a `Last-Event-ID` names both. */
export const threadEventId = (event: RunEventRecord): string => `${event.runId}:${event.seq}`;

/** The client's `Last-Event-ID` read as a thread stream position. */
export function threadStreamStartOf(lastEventId: string | undefined): ThreadStreamStart {
  if (lastEventId === '-') return { fromFirstRun: true };
  const match = /^(.{1,200}):(\d{1,15})$/.exec(lastEventId ?? '');
  return match ? { after: { runId: match[1] as string, seq: Number(match[2]) } } : { current: true };
}

export interface ThreadStreamOptions {
  threadId: string;
  reader: Principal;
  modes: ReadonlySet<ThreadStreamMode>;
  start: ThreadStreamStart;
  heartbeatMs: number;
  /** How often a thread with no run to stream is looked at again for its next run. */
  pollMs: number;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * LangGraph's join of a thread's stream (`GET /threads/{thread_id}/stream`): the events of the thread's runs one after
 * the other, each run's as its own stream carries them (from the run log, redacted for the reader), open until the
 * client closes it. It starts at the thread's current run (its first one not ended, from that run's first event) or,
 * with none, waits for the next; with `Last-Event-ID` `<run_id>:<seq>` right after that event, with `-` at the
 * thread's first run. Before each run, and while it waits, the reader's access is read again from the store: a
 * reader who lost the thread gets an `error` event (what a missing thread gets) and the stream ends.
 */
export function streamThreadEvents(
  c: Context,
  runs: RunManager,
  store: Pick<RunLog, 'getThread' | 'listRuns'> & Pick<PrincipalStore, 'getUser'>,
  options: ThreadStreamOptions,
): Response {
  return streamSSE(c, async (stream) => {
    const disconnected = new AbortController();
    stream.onAbort(() => disconnected.abort());
    const signal = disconnected.signal;
    const heartbeat = setInterval(
      () => void stream.write(': heartbeat\n\n').catch(() => undefined),
      options.heartbeatMs,
    );
    try {
      // Runs the stream does not (or no longer) stream; the thread's runs are listed oldest first.
      const passed = new Set<string>();
      let resume = 'after' in options.start ? options.start.after : undefined;
      let first = true;
      while (!signal.aborted) {
        let reader: Principal;
        let owner: string;
        try {
          reader = await currentPrincipal(store, options.reader);
          owner = (await readableThread(store, options.threadId, reader)).owner;
        } catch (error) {
          const shown = publicErrorOf(error);
          await stream.write(
            `event: error\ndata: ${JSON.stringify({ error: shown.code, message: shown.message, hint: shown.hint })}\n\n`,
          );
          return;
        }
        const list = await store.listRuns(options.threadId, owner);
        if (first) {
          first = false;
          const at = resume ? list.findIndex((run) => run.runId === resume?.runId) : -1;
          if (at >= 0) for (const run of list.slice(0, at)) passed.add(run.runId);
          else if (!('fromFirstRun' in options.start)) {
            // At the current run: what has ended is not streamed (nor is an id of no run of this thread followed).
            resume = undefined;
            for (const run of list) if (isRunFinished(run.status)) passed.add(run.runId);
          }
        }
        const next = list.find((run) => !passed.has(run.runId));
        if (!next) {
          await pause(options.pollMs, signal);
          continue;
        }
        const afterSeq = resume?.runId === next.runId ? resume.seq : 0;
        resume = undefined;
        for await (const batch of runs.eventBatches(next.runId, afterSeq, signal, reader)) {
          const text = batch
            .filter((event) => passes(event.event, options.modes))
            .map(
              (event) =>
                `event: ${event.event}\ndata: ${JSON.stringify(event.data ?? null)}\nid: ${threadEventId(event)}\n\n`,
            )
            .join('');
          if (text) await stream.write(text);
        }
        passed.add(next.runId);
      }
    } finally {
      clearInterval(heartbeat);
    }
  });
}

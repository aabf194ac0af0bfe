import { ValidationError } from '../errors/index.ts';
import { checkIdentifier } from '../domain/identifier.ts';
import { endEvent } from './run-rules.ts';
import type { RunEnqueue, RunEventRecord, RunRecordStatus } from './ports/run-log.ts';

/** The rules of the run queue (double-texting), written once for every backend, as `run-rules.ts` is for runs. */

/** How many startable runs `listStartableRuns` returns when the caller gives no limit. */
export const DEFAULT_STARTABLE_LIMIT = 100;

/** An enqueued run names every field a start does, and carries its request. */
export function validateRunEnqueue(run: RunEnqueue): void {
  for (const field of ['runId', 'threadId', 'agent', 'user', 'question'] as const) {
    if (!run[field]) throw new ValidationError(`A run needs a non-empty ${field}.`);
  }
  checkIdentifier('thread id', run.threadId);
  checkIdentifier('run id', run.runId);
  if (run.request === undefined || run.request === null) throw new ValidationError('A queued run needs its request.');
}

/**
 * How a pending run is cancelled before it started: `cancelled`, with the `error` and `end` events that are its whole
 * log (it has none yet), so a client streaming or joining it sees it end as a cancelled run does.
 */
export function cancelledPending(runId: string): { status: RunRecordStatus; error: string; events: RunEventRecord[] } {
  const message = 'The run was cancelled before it started.';
  return {
    status: 'cancelled',
    error: message,
    events: [
      { runId, seq: 1, event: 'error', data: { error: 'cancelled', message, hint: null } },
      endEvent(runId, 2, 'cancelled'),
    ],
  };
}

import { INTERRUPT } from '@langchain/langgraph';
import { publicErrorOf } from '../../errors/public-error.ts';
import type { Logger } from '../../logging/logger.ts';
import type { RunRecord, RunRecordStatus, Store } from '../../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { messageTupleJson } from './stream-json.ts';
import { valuesToStore } from './values-delta.ts';

/** Every mode is recorded, whatever the starting client asked for: a later join may ask for other modes. */
export const RECORDED_STREAM_MODES = ['values', 'updates', 'custom', 'messages'] as const;

export interface ExecuteRunInput {
  store: Store;
  agent: AgentDefinition;
  run: RunRecord;
  /** The graph input, a `Command` resuming an interrupt, or null to replay from `checkpointId`. */
  input: unknown;
  /** Time travel: run from this earlier checkpoint of the thread (a new branch). */
  checkpointId?: string;
  signal: AbortSignal;
  /** Called after each event is stored, so live subscribers read it at once. */
  onEvent: () => void;
  logger: Logger;
}

/**
 * Runs one graph execution to its end and records it: every stream chunk becomes a numbered event in the store
 * (`metadata` first, `end` last, `error` before `end` on failure or cancellation), and the run's final status.
 * Never throws: a failure is the run's outcome, recorded for whoever streams or joins it.
 */
export async function executeRun({ store, agent, run, input, checkpointId, signal, onEvent, logger }: ExecuteRunInput): Promise<RunRecord> {
  const { runId, threadId } = run;
  let seq = 0;
  const emit = async (event: string, data: unknown) => {
    seq += 1;
    await store.appendRunEvents([{ runId, seq, event, data }]);
    onEvent();
  };
  let status: RunRecordStatus;
  let error: string | undefined;
  try {
    await emit('metadata', { run_id: runId, thread_id: threadId, assistant_id: agent.name, attempt: 1 });
    let values: Record<string, unknown> = {};
    const stream = await agent.graph.stream(input, {
      streamMode: [...RECORDED_STREAM_MODES],
      configurable: { thread_id: threadId, run_id: runId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) },
      signal,
    });
    let stored: Record<string, unknown> | undefined;
    for await (const part of stream) {
      const [mode, chunk] = part as [string, unknown];
      if (mode === 'values') {
        const chunkValues = chunk as Record<string, unknown>;
        // An interrupt arrives as a values chunk of its own; clients get it merged into the last state, as invoke returns it.
        values = INTERRUPT in chunkValues ? { ...values, [INTERRUPT]: chunkValues[INTERRUPT] } : chunkValues;
        const view = agent.view(values);
        await emit('values', valuesToStore(stored, view));
        stored = view;
      } else {
        await emit(mode, mode === 'messages' ? messageTupleJson(chunk) : chunk);
      }
    }
    const waiting = (await agent.graph.getState({ configurable: { thread_id: threadId } })).next.length > 0;
    status = waiting ? 'interrupted' : agent.outcome(values);
    const runErrors = (values.errors ?? []) as { code: string; message: string }[];
    if (runErrors[0]) error = `${runErrors[0].message} (${runErrors[0].code})`;
  } catch (caught) {
    const cancelled = signal.aborted;
    status = cancelled ? 'cancelled' : 'failed';
    const shown = cancelled ? { code: 'cancelled', message: 'The run was cancelled.', hint: null } : publicErrorOf(caught);
    error = shown.message;
    if (!cancelled) logger.error('run failed', { run_id: runId, error: String(caught) });
    await emit('error', { error: shown.code, message: shown.message, hint: shown.hint }).catch(() => undefined);
  }
  const finished = await store.finishRun(runId, { status, ...(error ? { error } : {}) });
  await emit('end', { status: finished.status });
  return finished;
}

import type { RunRecordStatus, RunStart, Store } from '../store/store.ts';
import type { RagGraph } from './rag/rag-graph.ts';
import type { RagStateType } from './core/state.ts';

/**
 * Runs `work` as one recorded run: `running` in the store before the graph starts, then its final status and
 * duration. A run the graph left waiting (an interrupt) is `interrupted`; a run that threw is `failed` with the
 * error's message, and the error is rethrown.
 */
export async function recordedRun(
  store: Store,
  graph: RagGraph,
  start: RunStart,
  work: () => Promise<RagStateType>,
): Promise<RagStateType> {
  await store.startRun(start);
  let state: RagStateType;
  try {
    state = await work();
  } catch (error) {
    await store.finishRun(start.runId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const waiting = (await graph.getState({ configurable: { thread_id: start.threadId } })).next.length > 0;
  const status: RunRecordStatus = waiting ? 'interrupted' : state.status;
  const error = state.errors[0];
  await store.finishRun(start.runId, { status, ...(error ? { error: `${error.message} (${error.code})` } : {}) });
  return state;
}

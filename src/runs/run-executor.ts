import { INTERRUPT } from '@langchain/langgraph';
import type { Span } from '@opentelemetry/api';
import { RunLeaseLostError } from '../errors/index.ts';
import { publicErrorOf } from '../errors/public-error.ts';
import type { Logger } from '../logging/logger.ts';
import type { RunLog, RunRecord, RunRecordStatus } from '../store/store.ts';
import { SPAN_STATUS_ERROR } from '../telemetry/in-span.ts';
import { inRunSpan } from '../telemetry/run-span.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { checkpointIdOf } from './checkpoint-id.ts';
import { detailChunkJson } from './detail-stream-json.ts';
import { DEFAULT_DETAIL_STREAM_MAX_BYTES, DetailStreamBudget } from './detail-stream-budget.ts';
import { BASE_RECORDED_MODES, detailModesOf, isDetailStreamMode, recordedModesOf } from './detail-stream-modes.ts';
import { DetailWriteRedaction, runPrincipalOf, type DetailWriteStore } from './detail-write-redaction.ts';
import { graphChunks } from './graph-stream-source.ts';
import type { RunEventWriter } from './run-event-writer.ts';
import { leaseStopOf, type LeaseStop } from './run-lease.ts';
import { messageTupleJson } from './stream-json.ts';
import { valuesToStore } from './values-delta.ts';

/**
 * These modes are recorded for every run, whatever the starting client asked for: a later join may ask for other
 * modes. `messages` only for an agent whose steps can stream them (one with a chat model): offline there are none to
 * record. The detail modes (`events`, `debug`, `checkpoints`, `tasks`, `tools`) only when the run's creator asked for them.
 */
const baseModesOf = (agent: AgentDefinition): string[] =>
  agent.streamsMessages === false
    ? BASE_RECORDED_MODES.filter((mode) => mode !== 'messages')
    : [...BASE_RECORDED_MODES];

export interface ExecuteRunInput {
  /** The run log, and (for the detail modes, written as the run's principal may read them) chunks and users. */
  store: RunLog & DetailWriteStore;
  agent: AgentDefinition;
  run: RunRecord;
  /** The graph input, a `Command` resuming an interrupt, or null to replay from `checkpointId`. */
  input: unknown;
  /** Time travel: run from this earlier checkpoint of the thread (a new branch). */
  checkpointId?: string;
  /** The lease this process holds on the run: every write names it, so once another process holds the run this one writes nothing more. */
  leaseOwner: string;
  /** Where the run's events go: the manager's batched writer, which also hands them to its live readers. */
  events: Pick<RunEventWriter, 'append' | 'appendNow' | 'forget'>;
  /** The thread's head checkpoint as the run's start found it (null: none yet); read here when not given. */
  fromCheckpointId?: string | null;
  /** A recovered run continues its log after its last stored event (0, the default, for a new run). */
  afterSeq?: number;
  /** An orphan that cannot be resumed: the run ends failed with this error, the graph untouched. */
  failWith?: Error;
  /**
   * The stream modes the run's creator asked for: the detail ones (`events`, `debug`, `checkpoints`, `tasks`, `tools`) are
   * recorded beside the base modes; a recovered run (no list given) records what its first `metadata` event says.
   */
  streamModes?: readonly string[] | undefined;
  /** What the detail modes may store per execution, in bytes of JSON (`runs.detailStreamMaxBytes`). */
  detailMaxBytes?: number | undefined;
  /** Aborting with a plain reason cancels the run; with a `LeaseStop` the run is left to another process, unrecorded. */
  signal: AbortSignal;
  /**
   * Called once the run's end is stored, so live subscribers read it at once and its thread is free at once; with the
   * run's last state when it settled (answered, refused or interrupted), for its audit record.
   */
  onEnd: (finalState: Record<string, unknown> | undefined) => void;
  logger: Logger;
}

/**
 * Runs one graph execution to its end and records it: every stream chunk becomes a numbered event in the store
 * (`metadata` first, `end` last, `error` before `end` on failure or cancellation), and the run's final status. A
 * first `metadata` names the thread's head checkpoint as the run found it (`from_checkpoint_id`): a head that has
 * moved on since is the run's own work, which is how recovery knows it can resume. A recovered run's execution
 * (`afterSeq` > 0) continues the numbering, opens with a `metadata` of its attempt, and resumes the graph from the
 * thread's last checkpoint (input null). Never throws: a failure is the run's outcome, recorded for whoever streams
 * or joins it; a run this process lost (or hands over) is left as it is. With tracing on, the execution is a span
 * (`run <agent>`) whose children are the graph's node spans; it ends with the run's status and event count.
 */
export function executeRun(execution: ExecuteRunInput): Promise<RunRecord> {
  const { agent, run } = execution;
  return inRunSpan(
    { agent: agent.name, runId: run.runId, threadId: run.threadId, attempt: run.attempt, question: run.question },
    (span) => executeTracedRun(execution, span),
  );
}

async function executeTracedRun(execution: ExecuteRunInput, span: Span | undefined): Promise<RunRecord> {
  const { store, agent, run, input, checkpointId, leaseOwner, failWith, signal, onEnd, logger, events } = execution;
  const began = performance.now();
  const { runId, threadId } = run;
  let seq = execution.afterSeq ?? 0;
  // Events are appended without waiting for each: a step's chunks go to the store in one batch, and reach readers
  // before the next step runs. The writer stores a run's events in order, so the last one settles last; the first
  // refusal stops the run at its next event.
  let appended: Promise<void> = Promise.resolve();
  let refusal: { error: unknown; seq: number } | undefined;
  const emit = (event: string, data: unknown): Promise<void> => {
    if (refusal) throw refusal.error;
    seq += 1;
    const record = { runId, seq, event, data };
    appended = events.append(record);
    appended.catch((error: unknown) => {
      refusal ??= { error, seq: record.seq };
    });
    return appended;
  };
  /** The run goes on elsewhere (or is free for whoever claims it next): nothing of its end is recorded here. */
  const leave = async (stop: LeaseStop): Promise<RunRecord> => {
    span?.setAttributes({ 'evident.run.left': stop, 'evident.run.event_count': seq - (execution.afterSeq ?? 0) });
    if (stop === 'handover') await store.renewRunLease(runId, { owner: leaseOwner, ttlMs: 0 });
    else logger.warn('run lost to another process', { run_id: runId, owner: leaseOwner });
    return (await store.getRun(runId)) ?? run;
  };
  const stopOf = (caught: unknown): LeaseStop | undefined =>
    leaseStopOf(signal) ?? (RunLeaseLostError.isInstance(caught) ? 'lease_lost' : undefined);
  let status: RunRecordStatus;
  let error: string | undefined;
  let finalState: Record<string, unknown> | undefined;
  try {
    // The detail modes this run records: what its creator asked for, or (a recovered run) what its log says it records.
    const asked = execution.streamModes
      ? detailModesOf(execution.streamModes)
      : seq > 0
        ? detailModesOf(recordedModesOf((await store.listRunEvents(runId, 0, 1))[0]?.data))
        : [];
    const detail = asked.filter((mode) => mode !== 'events' || agent.graph.streamEvents !== undefined);
    const metadata = {
      run_id: runId,
      thread_id: threadId,
      assistant_id: run.assistantId ?? agent.name,
      ...(run.assistantVersion === undefined ? {} : { assistant_version: run.assistantVersion }),
      attempt: run.attempt,
      // Which modes a join or a replay can ask for.
      stream_modes: [...baseModesOf(agent), ...detail],
    };
    const fromCheckpoint =
      seq > 0
        ? {}
        : {
            from_checkpoint_id:
              execution.fromCheckpointId !== undefined
                ? execution.fromCheckpointId
                : await headCheckpointId(agent, threadId),
          };
    // Stored at once, not with the next batch: the client that started the run is waiting for it.
    seq += 1;
    await events.appendNow({ runId, seq, event: 'metadata', data: { ...metadata, ...fromCheckpoint } });
    if (failWith) throw failWith;
    let values: Record<string, unknown> = {};
    const budget = new DetailStreamBudget(execution.detailMaxBytes ?? DEFAULT_DETAIL_STREAM_MAX_BYTES, runId);
    const writing =
      detail.length > 0
        ? await DetailWriteRedaction.open(
            store,
            runPrincipalOf(
              input,
              (await agent.graph.getState({ configurable: { thread_id: threadId } })).values,
              run.user,
            ),
            metadata.stream_modes,
          )
        : undefined;
    let step: number | null = null;
    const stream = graphChunks(
      agent.graph,
      input,
      {
        streamMode: [...baseModesOf(agent), ...detail.filter((mode) => mode !== 'events')],
        // Each step's checkpoint is stored before the next step starts: a step a crash interrupts is the only work
        // lost, and a step waits for the checkpointer's (batched) write, which lets other runs and requests go between.
        durability: 'sync',
        configurable: { thread_id: threadId, run_id: runId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) },
        signal,
      },
      detail.includes('events') ? { runId } : undefined,
    );
    let stored: Record<string, unknown> | undefined;
    for await (const part of stream) {
      const [mode, chunk] = part;
      if (isDetailStreamMode(mode)) {
        const json = detailChunkJson(mode, chunk, (state) => agent.view(state));
        if (mode === 'debug' && typeof json.step === 'number') step = json.step;
        const data = writing ? await writing.detail(mode, json) : json;
        const admitted = budget.admit(mode, JSON.stringify(data), step);
        if (admitted.kind === 'store') void emit(mode, data);
        else if (admitted.kind === 'cut') void emit(mode, admitted.notice);
      } else if (mode === 'values') {
        const chunkValues = chunk as Record<string, unknown>;
        // An interrupt arrives as a values chunk of its own; clients get it merged into the last state, as invoke returns it.
        values = INTERRUPT in chunkValues ? { ...values, [INTERRUPT]: chunkValues[INTERRUPT] } : chunkValues;
        const view = agent.view(values);
        writing?.seen('values', view);
        void emit('values', valuesToStore(stored, view));
        stored = view;
      } else {
        const data = mode === 'messages' ? messageTupleJson(chunk) : chunk;
        writing?.seen(mode, data);
        void emit(mode, data);
      }
    }
    await appended;
    const waiting = (await agent.graph.getState({ configurable: { thread_id: threadId } })).next.length > 0;
    status = waiting ? 'interrupted' : agent.outcome(values);
    if (status !== 'failed' && status !== 'cancelled') finalState = values;
    const runErrors = (values.errors ?? []) as { code: string; message: string }[];
    if (runErrors[0]) error = `${runErrors[0].message} (${runErrors[0].code})`;
  } catch (caught) {
    const stop = stopOf(caught);
    if (stop) return leave(stop);
    const cancelled = signal.aborted;
    status = cancelled ? 'cancelled' : 'failed';
    const shown = cancelled
      ? { code: 'cancelled', message: 'The run was cancelled.', hint: null }
      : publicErrorOf(caught);
    error = shown.message;
    if (!cancelled && !failWith) logger.error('run failed', { run_id: runId, error: String(caught) });
    // Whatever was appended before is stored (or refused) first: the error follows it, or the run was lost.
    await appended.catch(() => undefined);
    if (refusal) {
      const lost = stopOf(refusal.error);
      if (lost) return leave(lost);
      // The log goes on from its last stored event: the error and the end follow it without a gap.
      seq = refusal.seq - 1;
      refusal = undefined;
      events.forget(runId);
    }
    try {
      await emit('error', { error: shown.code, message: shown.message, hint: shown.hint });
    } catch {
      seq -= 1;
    }
  }
  try {
    // The status and the `end` event in one transaction: a run is never finished without its end, nor ended twice.
    const finished = await store.finishRun(runId, { status, ...(error ? { error } : {}), leaseOwner, endSeq: seq + 1 });
    seq += 1;
    onEnd(finalState);
    span?.setAttributes({
      'evident.run.status': status,
      // The events this execution recorded, its `end` included (a recovered run's log began before it).
      'evident.run.event_count': seq - (execution.afterSeq ?? 0),
      'evident.duration_ms': Math.round((performance.now() - began) * 100) / 100,
    });
    if (status === 'failed') span?.setStatus({ code: SPAN_STATUS_ERROR, message: 'run failed' });
    return finished;
  } catch (caught) {
    const stop = stopOf(caught);
    if (stop) return leave(stop);
    throw caught;
  }
}

const headCheckpointId = async (agent: AgentDefinition, threadId: string): Promise<string | null> =>
  checkpointIdOf(await agent.graph.getState({ configurable: { thread_id: threadId } }));

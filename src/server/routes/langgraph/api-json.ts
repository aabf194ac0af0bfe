import { INTERRUPT, type StateSnapshot } from '@langchain/langgraph';
import type { AgentDefinition } from '../../../runs/agent-definition.ts';
import type { RunRecord, RunRecordStatus, ThreadRecord, ThreadSummary } from '../../../store/store.ts';

/** LangGraph's run statuses; Evident's own outcome (answered, refused, …) travels beside it as `outcome`. */
const RUN_STATUS: Record<RunRecordStatus, 'pending' | 'running' | 'success' | 'error' | 'interrupted'> = {
  pending: 'pending',
  running: 'running',
  answered: 'success',
  refused: 'success',
  failed: 'error',
  interrupted: 'interrupted',
  cancelled: 'interrupted',
};

/** LangGraph's thread statuses, from the status of the thread's latest run. */
const THREAD_STATUS: Record<RunRecordStatus, 'idle' | 'busy' | 'interrupted' | 'error'> = {
  pending: 'busy',
  running: 'busy',
  answered: 'idle',
  refused: 'idle',
  failed: 'error',
  interrupted: 'interrupted',
  cancelled: 'idle',
};

const BORN = new Date(0).toISOString();

export const assistantJson = (agent: AgentDefinition) => ({
  assistant_id: agent.name,
  graph_id: agent.name,
  name: agent.name,
  description: agent.description,
  config: {},
  context: {},
  metadata: {},
  version: 1,
  created_at: BORN,
  updated_at: BORN,
});

export const runJson = (run: RunRecord) => ({
  run_id: run.runId,
  thread_id: run.threadId,
  assistant_id: run.assistantId ?? run.agent,
  created_at: run.startedAt,
  updated_at: run.finishedAt ?? run.startedAt,
  status: RUN_STATUS[run.status],
  // Which graph ran, and which version of the assistant (a stored one's configuration) it applied.
  metadata: {
    graph_id: run.agent,
    ...(run.assistantVersion === undefined ? {} : { assistant_version: run.assistantVersion }),
  },
  multitask_strategy: run.multitaskStrategy ?? 'reject',
  kwargs: {},
  outcome: run.status,
  question: run.question,
  ...(run.error ? { error: run.error } : {}),
  ...(run.durationMs === undefined ? {} : { duration_ms: run.durationMs }),
});

export function threadJson(
  thread: (ThreadRecord & Pick<ThreadSummary, 'lastStatus'>) | ThreadSummary,
  extra: { values?: Record<string, unknown> } = {},
) {
  const last = 'lastStatus' in thread ? thread.lastStatus : undefined;
  return {
    thread_id: thread.threadId,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
    metadata: { ...thread.metadata, ...(thread.agent ? { graph_id: thread.agent, assistant_id: thread.agent } : {}) },
    // A run is recorded `running` before it starts, so the latest run's status is the thread's.
    status: last ? THREAD_STATUS[last] : 'idle',
    ...('lastQuestion' in thread ? { last_question: thread.lastQuestion, run_count: thread.runCount } : {}),
    ...(extra.values ? { values: extra.values } : {}),
  };
}

const checkpointJson = (config: StateSnapshot['config'] | undefined) =>
  config?.configurable
    ? {
        thread_id: config.configurable.thread_id ?? null,
        checkpoint_ns: config.configurable.checkpoint_ns ?? '',
        checkpoint_id: config.configurable.checkpoint_id ?? null,
      }
    : null;

/** A checkpoint as LangGraph's ThreadState: the agent's view of the values, what runs next, and pending interrupts. */
export function threadStateJson(agent: AgentDefinition | undefined, snapshot: StateSnapshot | undefined) {
  const values = (snapshot?.values ?? {}) as Record<string, unknown>;
  const tasks = (snapshot?.tasks ?? []).map((task) => ({
    id: task.id,
    name: task.name,
    error: task.error ? String(task.error) : null,
    interrupts: task.interrupts,
    checkpoint: null,
    state: null,
  }));
  const interrupts = tasks.flatMap((task) => task.interrupts);
  const view = agent && snapshot?.createdAt ? agent.view(values) : {};
  return {
    values: interrupts.length ? { ...view, [INTERRUPT]: interrupts } : view,
    next: snapshot?.next ?? [],
    tasks,
    interrupts,
    checkpoint: checkpointJson(snapshot?.config),
    parent_checkpoint: checkpointJson(snapshot?.parentConfig),
    metadata: snapshot?.metadata ?? {},
    created_at: snapshot?.createdAt ?? null,
  };
}

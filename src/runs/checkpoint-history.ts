import type { StateSnapshot } from '@langchain/langgraph';
import type { AgentGraph } from './agent-definition.ts';
import type { SharedValues } from '../domain/run-state.ts';

/** One checkpoint of a thread, as time travel lists it. */
export interface CheckpointInfo {
  checkpoint_id: string;
  parent_id: string | null;
  /** LangGraph's step counter: -1 for a run's input, then one per superstep, continuing across runs. */
  step: number;
  /** `input` (a run's question arrived), `loop` (a node ran), `update` or `fork`. */
  source: string;
  /** The node(s) whose writes made this checkpoint; `input` for a run's input. */
  node: string;
  /** The node(s) that would run next from here; empty at the end of a run. */
  next: string[];
  run_id: string;
  question: string;
  created_at: string;
}

const checkpointIdOf = (config: StateSnapshot['config'] | undefined): string | null => {
  const id: unknown = config?.configurable?.checkpoint_id;
  return typeof id === 'string' ? id : null;
};

/**
 * Every checkpoint of a thread, oldest first, across all branches (a fork adds a branch; the original stays). The
 * node that produced a checkpoint is what its parent said would run next, since LangGraph's metadata no longer
 * records the writes.
 */
export async function listCheckpointInfo(graph: AgentGraph, threadId: string): Promise<CheckpointInfo[]> {
  const snapshots: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: threadId } }))
    snapshots.push(snapshot);
  const nextById = new Map(snapshots.map((snapshot) => [checkpointIdOf(snapshot.config), snapshot.next]));
  // An input checkpoint still shows the previous run's values (its input is pending); its run is its child's.
  const childValues = new Map(
    snapshots.map((snapshot) => [
      checkpointIdOf(snapshot.parentConfig),
      (snapshot.values ?? {}) as Partial<SharedValues>,
    ]),
  );
  return snapshots
    .map((snapshot): CheckpointInfo => {
      const parentId = checkpointIdOf(snapshot.parentConfig);
      const source = snapshot.metadata?.source ?? 'loop';
      const own = (snapshot.values ?? {}) as Partial<SharedValues>;
      const values = source === 'input' ? (childValues.get(checkpointIdOf(snapshot.config)) ?? {}) : own;
      return {
        checkpoint_id: checkpointIdOf(snapshot.config) ?? '',
        parent_id: parentId,
        step: snapshot.metadata?.step ?? 0,
        source,
        node: source === 'input' ? 'input' : (nextById.get(parentId)?.join(',') ?? ''),
        next: [...snapshot.next],
        run_id: values.run_id ?? '',
        question: values.question ?? '',
        created_at: snapshot.createdAt ?? '',
      };
    })
    .reverse();
}

import type { BaseCheckpointSaver } from '@langchain/langgraph';

/** A LangGraph checkpoint saver on a store's own data, and how to let go of the connection it holds. */
export interface Checkpointer {
  saver: BaseCheckpointSaver;
  close(): Promise<void>;
}

/**
 * Where agents' graph state lives between steps (checkpoints by `thread_id`): in the store itself, so every process
 * sharing the store resumes any thread. Each backend gives the saver that fits it; the agent layer asks the port
 * and never looks at which backend it has.
 */
export interface CheckpointStore {
  /**
   * A checkpoint saver of this store, with a connection of its own; the caller closes it when done. Asynchronous, so
   * a backend loads LangGraph's saver on first use: a process that never runs an agent (search, ingest) loads none of it.
   */
  openCheckpointer(): Promise<Checkpointer>;
}

/**
 * A saver that deletes the checkpoints a thread took after a given one (a rollback: a run's own checkpoints are the
 * ones its thread took after the head the run started from, as no other run executes on the thread meanwhile), in
 * every namespace, with their pending writes. Checkpoint ids are time-ordered (uuid6), as the savers' own "latest"
 * reads assume. Resolves with how many checkpoints went.
 */
export interface RunCheckpointDeletion {
  /** `after` null: every checkpoint of the thread (the run started on a thread with none). */
  deleteCheckpointsAfter(threadId: string, after: string | null): Promise<number>;
}

export const deletesRunCheckpoints = (saver: unknown): saver is RunCheckpointDeletion =>
  typeof (saver as Partial<RunCheckpointDeletion> | null)?.deleteCheckpointsAfter === 'function';

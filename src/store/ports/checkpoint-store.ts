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

import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import type { Store } from '../store/store.ts';

export interface Checkpointer {
  saver: BaseCheckpointSaver;
  close(): void;
}

const BUSY_TIMEOUT_MS = 5_000;

/**
 * LangGraph checkpoints in the store's own SQLite file (tables `checkpoints` and `writes`; ingested tables are all
 * `tbl_*`, so names cannot collide), through a second connection: the saver wants a better-sqlite3 handle and the
 * store keeps its own private. WAL lets both write the one file. An in-memory store gets an in-memory saver.
 */
export function openCheckpointer(store: Store): Checkpointer {
  if (store.backend !== 'sqlite' || store.location === ':memory:') return { saver: new MemorySaver(), close: () => undefined };
  const db = new Database(store.location);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return { saver: new SqliteSaver(db), close: () => db.close() };
}

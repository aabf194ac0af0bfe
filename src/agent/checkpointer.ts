import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { PostgresStore } from '../store/postgres/postgres-store.ts';
import type { Store } from '../store/store.ts';
import { LazyPostgresSaver } from './postgres-saver.ts';

export interface Checkpointer {
  saver: BaseCheckpointSaver;
  close(): void;
}

const BUSY_TIMEOUT_MS = 5_000;

/**
 * LangGraph checkpoints in the store's own SQLite file (tables `checkpoints` and `writes`; ingested tables are all
 * `tbl_*`, so names cannot collide), through a second connection: the saver wants a better-sqlite3 handle and the
 * store keeps its own private. WAL lets both write the one file. An in-memory store gets an in-memory saver.
 * A Postgres store keeps them in its own schema through LangGraph's PostgresSaver, so every server process on the
 * database resumes any thread.
 */
export function openCheckpointer(store: Store): Checkpointer {
  if (store instanceof PostgresStore) {
    const saver = LazyPostgresSaver.connect(store.connectionString, store.schema);
    return { saver, close: () => void saver.end().catch(() => undefined) };
  }
  if (store.backend !== 'sqlite' || store.location === ':memory:') return { saver: new MemorySaver(), close: () => undefined };
  const db = new Database(store.location);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return { saver: new SqliteSaver(db), close: () => db.close() };
}

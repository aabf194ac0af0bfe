import { MemorySaver } from '@langchain/langgraph';
import Database from 'better-sqlite3';
import type { Checkpointer } from '../ports/checkpoint-store.ts';
import { BatchedSqliteSaver } from './batched-sqlite-saver.ts';
import { BUSY_TIMEOUT_MS } from './connection.ts';

/**
 * LangGraph checkpoints in the store's own SQLite file (tables `checkpoints` and `writes`; ingested tables are all
 * `tbl_*`, so names cannot collide), through a second connection: the saver wants a better-sqlite3 handle and the
 * store keeps its own private. WAL lets both write the one file. The saver's writes are batched per turn of the
 * event loop (`BatchedSqliteSaver`). An in-memory store gets an in-memory saver.
 */
export function openSqliteCheckpointer(location: string): Checkpointer {
  if (location === ':memory:') return { saver: new MemorySaver(), close: async () => undefined };
  const db = new Database(location);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // As the store's own connection: in WAL mode a commit is atomic and survives the process being killed without an
  // fsync per commit (FULL, SQLite's default, synced the WAL at every batch of steps, on the event loop).
  db.pragma('synchronous = NORMAL');
  const saver = new BatchedSqliteSaver(db);
  return {
    saver,
    close: async () => {
      saver.flush();
      db.close();
    },
  };
}

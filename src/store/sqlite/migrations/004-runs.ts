import type { Migration } from './migration.ts';

/**
 * Threads and their runs. A thread has one owner (the user who started it); every run names the user who asked,
 * so listing is a filter in SQL, never a check after the fact. The checkpoints themselves live in LangGraph's
 * own tables; these rows are the index a client lists and the record of each run's status and timings.
 */
export const runsSchema: Migration = {
  version: 4,
  name: 'runs',
  up: (db) => {
    db.exec(`
      CREATE TABLE threads (
        thread_id TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX threads_owner ON threads(owner, updated_at);

      CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads(thread_id) ON DELETE CASCADE,
        agent TEXT NOT NULL,
        user TEXT NOT NULL,
        question TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        duration_ms REAL
      ) STRICT;
      CREATE INDEX runs_thread ON runs(thread_id, started_at);
    `);
  },
};

import type { Migration } from './migration.ts';

/**
 * The event log of every run (what SSE clients replay with `Last-Event-ID`), thread metadata, and threads created
 * before their first run: their `agent` is '' until a run binds the thread to one.
 */
export const runEvents: Migration = {
  version: 6,
  name: 'run-events',
  up: (db) => {
    db.exec(`
      ALTER TABLE threads ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
      CREATE TABLE run_events (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};

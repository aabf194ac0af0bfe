import type { Migration } from './migration.ts';

/**
 * A running run's lease: who executes it and until when (ISO time; renewed by the owner's heartbeat), and how many
 * executions it has had. A run from before leases has none, which reads as expired: it is orphaned. The partial index
 * is what the busy check and the orphan sweep read.
 */
export const runLease: Migration = {
  version: 9,
  name: 'run-lease',
  up: (db) => {
    db.exec(`
      ALTER TABLE runs ADD COLUMN lease_owner TEXT;
      ALTER TABLE runs ADD COLUMN lease_expires_at TEXT;
      ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
      CREATE INDEX runs_running ON runs(thread_id, lease_expires_at) WHERE status = 'running';
    `);
  },
};

import type { PostgresMigration } from './migration.ts';

/**
 * A running run's lease: who executes it and until when (the database's clock; renewed by the owner's heartbeat),
 * and how many executions it has had. A run from before leases has none, which reads as expired: it is orphaned.
 * The partial index is what the busy check and the orphan sweep read.
 */
export const runLease: PostgresMigration = {
  version: 7,
  name: 'run-lease',
  up: () => `
    ALTER TABLE runs ADD COLUMN lease_owner text;
    ALTER TABLE runs ADD COLUMN lease_expires_at timestamptz;
    ALTER TABLE runs ADD COLUMN attempt integer NOT NULL DEFAULT 1;
    CREATE INDEX runs_running ON runs (thread_id, lease_expires_at) WHERE status = 'running';
  `,
};

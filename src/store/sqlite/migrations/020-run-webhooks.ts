import type { Migration } from './migration.ts';

/**
 * The webhook a run names (`webhook` on a run), recorded with the run, and its delivery: attempts, the last status
 * and error, when the next attempt is due, and which process holds the attempt under way (a claim that expires, so
 * a process that died mid-attempt leaves it to another). Deleted with its run.
 */
export const runWebhooks: Migration = {
  version: 20,
  name: 'run-webhooks',
  up: (db) => {
    db.exec(`
      CREATE TABLE run_webhooks (
        run_id TEXT PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        requester TEXT NOT NULL,
        event_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        next_attempt_at TEXT NOT NULL,
        claim_owner TEXT,
        claim_expires_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX run_webhooks_due ON run_webhooks(next_attempt_at) WHERE state = 'pending';
    `);
  },
};

import type { PostgresMigration } from './migration.ts';

/**
 * The webhook a run names (`webhook` on a run), recorded with the run, and its delivery: attempts, the last status
 * and error, when the next attempt is due, and which process holds the attempt under way (a claim that expires on
 * the database's clock, so a server that died mid-attempt leaves it to another). Deleted with its run.
 */
export const runWebhooks: PostgresMigration = {
  version: 21,
  name: 'run-webhooks',
  up: () => `
    CREATE TABLE run_webhooks (
      run_id text PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,
      url text NOT NULL,
      requester json NOT NULL,
      event_id text NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      last_status integer,
      last_error text,
      next_attempt_at timestamptz NOT NULL,
      claim_owner text,
      claim_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz
    );
    CREATE INDEX run_webhooks_due ON run_webhooks (next_attempt_at) WHERE state = 'pending';
  `,
};

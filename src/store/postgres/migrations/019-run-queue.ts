import type { PostgresMigration } from './migration.ts';

/**
 * Double-texting: what each run asked of a busy thread (`multitask_strategy`), and a queued run's request, kept
 * until its turn comes (a run `pending` behind its thread's runs). The partial index is what the queue reads.
 */
export const runQueue: PostgresMigration = {
  version: 19,
  name: 'run-queue',
  up: () => `
    ALTER TABLE runs ADD COLUMN multitask_strategy text NOT NULL DEFAULT 'reject';
    ALTER TABLE runs ADD COLUMN queued_request jsonb;
    CREATE INDEX runs_pending ON runs (thread_id, seq) WHERE status = 'pending';
  `,
};

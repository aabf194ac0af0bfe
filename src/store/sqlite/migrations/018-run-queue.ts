import type { Migration } from './migration.ts';

/**
 * Double-texting: what each run asked of a busy thread (`multitask_strategy`), and a queued run's request, kept
 * until its turn comes (a run `pending` behind its thread's runs). The partial index is what the queue reads.
 */
export const runQueue: Migration = {
  version: 18,
  name: 'run-queue',
  up: (db) => {
    db.exec(`
      ALTER TABLE runs ADD COLUMN multitask_strategy TEXT NOT NULL DEFAULT 'reject';
      ALTER TABLE runs ADD COLUMN queued_request TEXT;
      CREATE INDEX runs_pending ON runs(thread_id) WHERE status = 'pending';
    `);
  },
};

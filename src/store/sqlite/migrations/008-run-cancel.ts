import type { Migration } from './migration.ts';

/** A run's cancellation request: set by whoever cancels, read by the process executing the run (maybe another). */
export const runCancel: Migration = {
  version: 8,
  name: 'run-cancel',
  up: (db) => {
    db.exec('ALTER TABLE runs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0');
  },
};

import type { PostgresMigration } from './migration.ts';

/** A run's cancellation request: set by whoever cancels, read by the server executing the run (maybe another). */
export const runCancel: PostgresMigration = {
  version: 6,
  name: 'run-cancel',
  up: () => 'ALTER TABLE runs ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false;',
};

import type { Migration } from './migration.ts';

/**
 * Ratings of runs' answers: one row per (run, rater), replaced when the rater rates again. A rating belongs to its
 * run (deleting the run's thread deletes it). `answer` is the answer as the rater saw it when rating. Indexes serve
 * the admin's filters, newest first.
 */
export const feedback: Migration = {
  version: 16,
  name: 'feedback',
  up: (db) => {
    db.exec(`
      CREATE TABLE feedback (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        rater TEXT NOT NULL,
        rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
        reason TEXT,
        comment TEXT,
        correction TEXT,
        answer TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (run_id, rater)
      ) STRICT;
      CREATE INDEX feedback_rater ON feedback(rater, id);
      CREATE INDEX feedback_updated ON feedback(updated_at);
    `);
  },
};

import type { PostgresMigration } from './migration.ts';

/**
 * Ratings of runs' answers: one row per (run, rater), replaced when the rater rates again. A rating belongs to its
 * run (deleting the run's thread deletes it). `answer` is the answer as the rater saw it when rating. Indexes serve
 * the admin's filters, newest first.
 */
export const feedbackSchema: PostgresMigration = {
  version: 17,
  name: 'feedback',
  up: () => `
    CREATE TABLE feedback (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      run_id text NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
      rater text NOT NULL,
      rating text NOT NULL CHECK (rating IN ('up', 'down')),
      reason text,
      comment text,
      correction text,
      answer text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (run_id, rater)
    );
    CREATE INDEX feedback_rater ON feedback (rater, id);
    CREATE INDEX feedback_updated ON feedback (updated_at);
  `,
};

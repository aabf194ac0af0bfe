import type { PostgresMigration } from './migration.ts';

/**
 * Scheduled runs. `crons` holds each cron with its owner, schedule and run payload, and `next_run_at`, the tick the
 * schedulers wait for: a scheduler claims a tick by moving it on (compare-and-set) and inserting the tick's row, whose
 * key `(cron_id, tick_at)` lets one tick be claimed once whatever the number of servers. `cron_ticks` is the cron's
 * history: which run each tick started, or why it was skipped.
 */
export const cronsSchema: PostgresMigration = {
  version: 20,
  name: 'crons',
  up: () => `
    CREATE TABLE crons (
      cron_id text PRIMARY KEY,
      owner text NOT NULL,
      assistant_id text NOT NULL,
      thread_id text,
      schedule text NOT NULL,
      timezone text NOT NULL,
      end_time timestamptz,
      enabled boolean NOT NULL,
      on_run_completed text NOT NULL,
      payload jsonb NOT NULL,
      metadata jsonb NOT NULL,
      next_run_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX crons_owner ON crons (owner, created_at);
    CREATE INDEX crons_due ON crons (next_run_at) WHERE enabled;
    CREATE TABLE cron_ticks (
      cron_id text NOT NULL REFERENCES crons(cron_id) ON DELETE CASCADE,
      tick_at timestamptz NOT NULL,
      status text NOT NULL,
      claimed_by text NOT NULL,
      claimed_at timestamptz NOT NULL,
      run_id text,
      thread_id text,
      reason text,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (cron_id, tick_at)
    );
  `,
};

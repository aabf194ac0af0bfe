import type { Migration } from './migration.ts';

/**
 * Scheduled runs. `crons` holds each cron with its owner, schedule and run payload (JSON), and `next_run_at`, the tick
 * the schedulers wait for: a scheduler claims a tick by moving it on (compare-and-set) and inserting the tick's row,
 * whose key `(cron_id, tick_at)` lets one tick be claimed once whatever the number of servers. `cron_ticks` is the
 * cron's history: which run each tick started, or why it was skipped.
 */
export const crons: Migration = {
  version: 19,
  name: 'crons',
  up: (db) => {
    db.exec(`
      CREATE TABLE crons (
        cron_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        assistant_id TEXT NOT NULL,
        thread_id TEXT,
        schedule TEXT NOT NULL,
        timezone TEXT NOT NULL,
        end_time TEXT,
        enabled INTEGER NOT NULL,
        on_run_completed TEXT NOT NULL,
        payload TEXT NOT NULL,
        metadata TEXT NOT NULL,
        next_run_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX crons_owner ON crons (owner, created_at);
      CREATE INDEX crons_due ON crons (next_run_at) WHERE enabled = 1;
      CREATE TABLE cron_ticks (
        cron_id TEXT NOT NULL REFERENCES crons(cron_id) ON DELETE CASCADE,
        tick_at TEXT NOT NULL,
        status TEXT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at TEXT NOT NULL,
        run_id TEXT,
        thread_id TEXT,
        reason TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (cron_id, tick_at)
      );
    `);
  },
};

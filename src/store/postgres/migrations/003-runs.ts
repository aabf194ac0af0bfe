import type { PostgresMigration } from './migration.ts';

/**
 * Threads, runs and each run's event log (what SSE clients replay with Last-Event-ID). A thread has one owner and
 * is bound to an agent by its first run (`agent` is '' until then); `seq` orders rows created in the same
 * millisecond. Metadata and event data are `json`, kept as the client wrote them.
 */
export const runsSchema: PostgresMigration = {
  version: 3,
  name: 'runs',
  up: () => `
    CREATE TABLE threads (
      thread_id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      agent text NOT NULL,
      owner text NOT NULL,
      metadata json NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX threads_owner ON threads (owner, updated_at);

    CREATE TABLE runs (
      run_id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      thread_id text NOT NULL REFERENCES threads(thread_id) ON DELETE CASCADE,
      agent text NOT NULL,
      user_name text NOT NULL,
      question text NOT NULL,
      status text NOT NULL,
      error text,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      duration_ms double precision
    );
    CREATE INDEX runs_thread ON runs (thread_id, started_at, seq);

    CREATE TABLE run_events (
      run_id text NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
      seq integer NOT NULL,
      event text NOT NULL,
      data json NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (run_id, seq)
    );
  `,
};

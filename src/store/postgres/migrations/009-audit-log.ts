import type { PostgresMigration } from './migration.ts';

/**
 * The append-only audit log. The identity column never hands out an id twice; `at` is the database's clock, to the
 * millisecond (what filters and JSON carry). A trigger refuses every UPDATE and DELETE (row level) and TRUNCATE
 * (statement level), whoever runs them — the owner too, whom privileges alone would not stop. Doc id lists are text
 * arrays. Indexes serve the filters, newest first.
 */
export const auditLogSchema: PostgresMigration = {
  version: 9,
  name: 'audit-log',
  up: ({ schema }) => `
    CREATE TABLE audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
      actor text NOT NULL,
      action text NOT NULL,
      surface text,
      question text,
      question_sha256 text,
      run_id text,
      thread_id text,
      returned_doc_ids text[],
      cited_doc_ids text[],
      withheld integer,
      decision text,
      target text,
      outcome text
    );
    CREATE INDEX audit_log_actor ON audit_log (actor, id);
    CREATE INDEX audit_log_action ON audit_log (action, id);
    CREATE INDEX audit_log_run ON audit_log (run_id, id) WHERE run_id IS NOT NULL;
    CREATE INDEX audit_log_at ON audit_log (at);
    CREATE FUNCTION "${schema}".audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END;
    $$;
    CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION "${schema}".audit_log_append_only();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".audit_log_append_only();
  `,
};

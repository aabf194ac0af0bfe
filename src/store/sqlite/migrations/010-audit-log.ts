import type { Migration } from './migration.ts';

/**
 * The append-only audit log. `id` is AUTOINCREMENT so an id is never reused; triggers refuse every UPDATE and DELETE,
 * and an INSERT OR REPLACE of an existing id, so not even code holding the connection can rewrite or remove an entry
 * (dropping the table is the only way out, and no code path does that). Doc id lists are JSON arrays. Indexes serve
 * the filters, newest first.
 */
export const auditLog: Migration = {
  version: 10,
  name: 'audit-log',
  up: (db) => {
    db.exec(`
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        surface TEXT,
        question TEXT,
        question_sha256 TEXT,
        run_id TEXT,
        thread_id TEXT,
        returned_doc_ids TEXT,
        cited_doc_ids TEXT,
        withheld INTEGER,
        decision TEXT,
        target TEXT,
        outcome TEXT
      ) STRICT;
      CREATE INDEX audit_log_actor ON audit_log(actor, id);
      CREATE INDEX audit_log_action ON audit_log(action, id);
      CREATE INDEX audit_log_run ON audit_log(run_id, id) WHERE run_id IS NOT NULL;
      CREATE INDEX audit_log_at ON audit_log(at);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be changed'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be deleted'); END;
      -- INSERT OR REPLACE deletes the row it replaces without firing delete triggers (recursive_triggers is off).
      CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
        WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: entries cannot be replaced'); END;
    `);
  },
};

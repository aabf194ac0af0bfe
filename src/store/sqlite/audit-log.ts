import {
  AUDIT_COLUMNS,
  auditChain,
  normalizeAuditQuery,
  validateAuditEntry,
  verifyAuditChain,
} from '../audit-rules.ts';
import type { AuditAction, AuditDecision, AuditEntry, AuditLog, AuditSurface } from '../ports/audit-log.ts';
import type { SqliteConnection } from './connection.ts';

interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: string;
  surface: string | null;
  question: string | null;
  question_sha256: string | null;
  run_id: string | null;
  thread_id: string | null;
  returned_doc_ids: string | null;
  cited_doc_ids: string | null;
  withheld: number | null;
  decision: string | null;
  target: string | null;
  outcome: string | null;
}

/** The append-only audit log on SQLite: inserts and reads only; the table's triggers refuse UPDATE and DELETE, and each entry's chain value (audit-rules.ts) shows a change made past them. */
export function sqliteAuditLog(conn: SqliteConnection): AuditLog {
  return {
    async appendAudit(entry) {
      conn.assertWritable();
      validateAuditEntry(entry);
      const fields: Omit<AuditRow, 'id'> = {
        at: new Date().toISOString(),
        actor: entry.actor,
        action: entry.action,
        surface: entry.surface ?? null,
        question: entry.question ?? null,
        question_sha256: entry.questionSha256 ?? null,
        run_id: entry.runId ?? null,
        thread_id: entry.threadId ?? null,
        returned_doc_ids: entry.returnedDocIds ? JSON.stringify(entry.returnedDocIds) : null,
        cited_doc_ids: entry.citedDocIds ? JSON.stringify(entry.citedDocIds) : null,
        withheld: entry.withheld ?? null,
        decision: entry.decision ?? null,
        target: entry.target ?? null,
        outcome: entry.outcome ?? null,
      };
      // The chain's last value is read and the entry appended after it under the write lock: appends chain in order.
      return conn.guard('append to the audit log', () =>
        conn.immediate(() => {
          const last = conn
            .stmt('SELECT chain FROM audit_log WHERE chain IS NOT NULL ORDER BY id DESC LIMIT 1')
            .get() as { chain: string } | undefined;
          const chain = auditChain(last?.chain ?? '', { ...entry, id: 0, at: fields.at });
          const row = conn
            .stmt(
              `INSERT INTO audit_log (at, actor, action, surface, question, question_sha256, run_id, thread_id,
                 returned_doc_ids, cited_doc_ids, withheld, decision, target, outcome, chain)
               VALUES (@at, @actor, @action, @surface, @question, @question_sha256, @run_id, @thread_id,
                 @returned_doc_ids, @cited_doc_ids, @withheld, @decision, @target, @outcome, @chain)
               RETURNING ${AUDIT_COLUMNS}`,
            )
            .get({ ...fields, chain }) as AuditRow;
          return toAuditEntry(row);
        }),
      );
    },

    async verifyAudit() {
      return verifyAuditChain(async (afterId, limit) =>
        conn.guard('verify the audit log', () =>
          (
            conn
              .stmt(`SELECT ${AUDIT_COLUMNS}, chain FROM audit_log WHERE id > ? ORDER BY id LIMIT ?`)
              .all(afterId, limit) as (AuditRow & { chain: string | null })[]
          ).map((row) => ({ entry: toAuditEntry(row), chain: row.chain })),
        ),
      );
    },

    async listAudit(query) {
      const q = normalizeAuditQuery(query);
      const where: string[] = [];
      const params: Record<string, unknown> = { limit: q.limit };
      const filter = (sql: string, name: string, value: unknown) => {
        if (value === undefined) return;
        where.push(sql);
        params[name] = value;
      };
      filter('actor = @actor', 'actor', q.actor);
      filter('action = @action', 'action', q.action);
      filter('run_id = @runId', 'runId', q.runId);
      filter('at >= @since', 'since', q.since);
      filter('at <= @until', 'until', q.until);
      filter('id < @beforeId', 'beforeId', q.beforeId);
      const sql = `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
      return conn.guard('read the audit log', () => (conn.stmt(sql).all(params) as AuditRow[]).map(toAuditEntry));
    },
  };
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action as AuditAction,
    ...(row.surface !== null ? { surface: row.surface as AuditSurface } : {}),
    ...(row.question !== null ? { question: row.question } : {}),
    ...(row.question_sha256 !== null ? { questionSha256: row.question_sha256 } : {}),
    ...(row.run_id !== null ? { runId: row.run_id } : {}),
    ...(row.thread_id !== null ? { threadId: row.thread_id } : {}),
    ...(row.returned_doc_ids !== null ? { returnedDocIds: JSON.parse(row.returned_doc_ids) as string[] } : {}),
    ...(row.cited_doc_ids !== null ? { citedDocIds: JSON.parse(row.cited_doc_ids) as string[] } : {}),
    ...(row.withheld !== null ? { withheld: row.withheld } : {}),
    ...(row.decision !== null ? { decision: row.decision as AuditDecision } : {}),
    ...(row.target !== null ? { target: row.target } : {}),
    ...(row.outcome !== null ? { outcome: row.outcome } : {}),
  };
}

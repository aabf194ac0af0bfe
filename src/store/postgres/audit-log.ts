import {
  AUDIT_COLUMNS,
  auditChain,
  auditFields,
  normalizeAuditQuery,
  validateAuditEntry,
  verifyAuditChain,
} from '../audit-rules.ts';
import type { AuditAction, AuditDecision, AuditEntry, AuditLog, AuditSurface } from '../ports/audit-log.ts';
import type { PostgresPool } from './pool.ts';

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  surface: string | null;
  question: string | null;
  question_sha256: string | null;
  run_id: string | null;
  thread_id: string | null;
  returned_doc_ids: string[] | null;
  cited_doc_ids: string[] | null;
  withheld: number | null;
  decision: string | null;
  target: string | null;
  outcome: string | null;
}

/** The append-only audit log on Postgres: inserts and reads only; the table's trigger refuses UPDATE, DELETE and TRUNCATE. */
export function postgresAuditLog(pool: PostgresPool): AuditLog {
  return {
    async appendAudit(entry) {
      validateAuditEntry(entry);
      // The time is set here (a JS Date, to the millisecond, as the column's default would be), so the chain value
      // covers the time that is read back.
      const at = new Date();
      // One append at a time across every process on the store (a transaction-scoped advisory lock): each reads the
      // chain's last value and appends after it.
      const row = await pool.transaction('append to the audit log', async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${pool.names.schema}.audit_chain`]);
        const last = (
          await c.query<{ chain: string }>(
            'SELECT chain FROM audit_log WHERE chain IS NOT NULL ORDER BY id DESC LIMIT 1',
          )
        ).rows[0];
        // The entry as it will read back (audit-rules.ts hashes every field but the id).
        const pending: AuditEntry = { ...entry, id: 0, at: at.toISOString() };
        const chain = auditChain(last?.chain ?? '', pending);
        return (
          await c.query<AuditRow>(
            `INSERT INTO audit_log (actor, action, surface, question, question_sha256, run_id, thread_id, returned_doc_ids,
               cited_doc_ids, withheld, decision, target, outcome, at, chain)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${AUDIT_COLUMNS}`,
            [...auditFields(entry), at, chain],
          )
        ).rows[0] as AuditRow;
      });
      return toAuditEntry(row);
    },

    async verifyAudit() {
      return verifyAuditChain(async (afterId, limit) => {
        const rows = await pool.withClient(
          'verify the audit log',
          async (c) =>
            (
              await c.query<AuditRow & { chain: string | null }>(
                `SELECT ${AUDIT_COLUMNS}, chain FROM audit_log WHERE id > $1 ORDER BY id LIMIT $2`,
                [afterId, limit],
              )
            ).rows,
        );
        return rows.map((row) => ({ entry: toAuditEntry(row), chain: row.chain }));
      });
    },

    async listAudit(query) {
      const q = normalizeAuditQuery(query);
      const where: string[] = [];
      const params: unknown[] = [];
      const filter = (sql: string, value: unknown) => {
        if (value === undefined) return;
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      filter('actor = ?', q.actor);
      filter('action = ?', q.action);
      filter('run_id = ?', q.runId);
      filter('at >= ?', q.since);
      filter('at <= ?', q.until);
      filter('id < ?', q.beforeId);
      params.push(q.limit);
      const sql = `SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.length}`;
      const rows = await pool.withClient(
        'read the audit log',
        async (c) => (await c.query<AuditRow>(sql, params)).rows,
      );
      return rows.map(toAuditEntry);
    },
  };
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    // bigint arrives as text; ids stay far below 2^53.
    id: Number(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action as AuditAction,
    ...(row.surface !== null ? { surface: row.surface as AuditSurface } : {}),
    ...(row.question !== null ? { question: row.question } : {}),
    ...(row.question_sha256 !== null ? { questionSha256: row.question_sha256 } : {}),
    ...(row.run_id !== null ? { runId: row.run_id } : {}),
    ...(row.thread_id !== null ? { threadId: row.thread_id } : {}),
    ...(row.returned_doc_ids !== null ? { returnedDocIds: row.returned_doc_ids } : {}),
    ...(row.cited_doc_ids !== null ? { citedDocIds: row.cited_doc_ids } : {}),
    ...(row.withheld !== null ? { withheld: row.withheld } : {}),
    ...(row.decision !== null ? { decision: row.decision as AuditDecision } : {}),
    ...(row.target !== null ? { target: row.target } : {}),
    ...(row.outcome !== null ? { outcome: row.outcome } : {}),
  };
}

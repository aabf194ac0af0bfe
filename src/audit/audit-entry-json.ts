import type { AuditEntry, AuditLog, AuditQuery } from '../store/store.ts';

/** An entry on the wire (HTTP, `evident audit --json`): snake_case, absent fields left out. */
export function auditEntryJson(entry: AuditEntry): Record<string, unknown> {
  return {
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    ...(entry.surface ? { surface: entry.surface } : {}),
    ...(entry.question !== undefined ? { question: entry.question } : {}),
    ...(entry.questionSha256 ? { question_sha256: entry.questionSha256 } : {}),
    ...(entry.runId ? { run_id: entry.runId } : {}),
    ...(entry.threadId ? { thread_id: entry.threadId } : {}),
    ...(entry.returnedDocIds ? { returned_doc_ids: entry.returnedDocIds } : {}),
    ...(entry.citedDocIds ? { cited_doc_ids: entry.citedDocIds } : {}),
    ...(entry.withheld !== undefined ? { withheld: entry.withheld } : {}),
    ...(entry.decision ? { decision: entry.decision } : {}),
    ...(entry.target ? { target: entry.target } : {}),
    ...(entry.outcome ? { outcome: entry.outcome } : {}),
  };
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The id to pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** One page, newest first: one entry more than the page is read, so the last page says so (no cursor to an empty page). */
export async function readAuditPage(log: Pick<AuditLog, 'listAudit'>, query: AuditQuery): Promise<AuditPage> {
  const found = await log.listAudit({ ...query, limit: query.limit + 1 });
  const entries = found.slice(0, query.limit);
  const last = entries.at(-1);
  return { entries, nextCursor: found.length > query.limit && last ? String(last.id) : null };
}

export const auditPageJson = (page: AuditPage) => ({
  entries: page.entries.map(auditEntryJson),
  next_cursor: page.nextCursor,
});

import { checkIdentifier, type Principal } from '../domain/index.ts';
import { EvidentError } from '../errors/index.ts';
import type { AuditSurface, DocumentStore, TableQueryLimits, TableQueryResult } from '../store/store.ts';
import type { AuditRecorder } from './audit-recorder.ts';

/**
 * Reads of content outside a search or an ask — SQL over the ingested tables, a document's file or MCP resource —
 * recorded like searches are: every front end reads through these, the record is written before the content is
 * handed back, and a record that cannot be written fails the read (nothing is served unaudited). A refused read is
 * recorded too, with its error code, and then refused.
 */

export interface AuditedReadServices {
  readonly store: Pick<DocumentStore, 'queryTables' | 'listTables'>;
  readonly audit: Pick<AuditRecorder, 'read'>;
}

/** A refused read's outcome: its error code, or `failed` for an error of a protocol's own (an MCP resource not found). */
const outcomeOf = (error: unknown): string => (EvidentError.isInstance(error) ? error.code : 'failed');

/** One SQL statement over the principal's tables, recorded with the documents whose tables it could read. */
export async function auditedTableQuery(
  evident: AuditedReadServices,
  input: { sql: string; principal: Principal; limits: TableQueryLimits; surface: AuditSurface },
): Promise<TableQueryResult> {
  const { sql, principal, surface } = input;
  const record = async (outcome: string) => {
    const docIds = [...new Set((await evident.store.listTables(principal)).map((table) => table.docId))];
    await evident.audit.read({ principal, action: 'table.query', surface, statement: sql, docIds, outcome });
  };
  let result: TableQueryResult;
  try {
    result = await evident.store.queryTables(sql, principal, input.limits);
  } catch (error) {
    await record(outcomeOf(error));
    throw error;
  }
  await record('ok');
  return result;
}

/** A document's content read whole (its file, an MCP resource): recorded before it is handed back. */
export async function auditedDocumentRead<T>(
  evident: Pick<AuditedReadServices, 'audit'>,
  input: { docId: string; principal: Principal; surface: AuditSurface },
  read: () => Promise<T>,
): Promise<T> {
  const { docId, principal, surface } = input;
  // An id no document can have is refused as such (400), before a record of it could fail.
  checkIdentifier('doc_id', docId);
  let content: T;
  try {
    content = await read();
  } catch (error) {
    await evident.audit.read({ principal, action: 'document.read', surface, target: docId, outcome: outcomeOf(error) });
    throw error;
  }
  await evident.audit.read({
    principal,
    action: 'document.read',
    surface,
    target: docId,
    docIds: [docId],
    outcome: 'ok',
  });
  return content;
}

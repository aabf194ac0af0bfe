import { MAX_ID_CHARS } from '../domain/identifier.ts';
import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/index.ts';
import {
  AUDIT_ACTIONS,
  AUDIT_SURFACES,
  MAX_AUDIT_PAGE,
  type AuditChainReport,
  type AuditEntry,
  type AuditEntryWrite,
  type AuditQuery,
} from './ports/audit-log.ts';

/** The bounds of one entry, checked before any SQL by both backends, so the log cannot be flooded through one append. */
/** The audit table's columns, in the order both adapters read them. */
export const AUDIT_COLUMNS =
  'id, at, actor, action, surface, question, question_sha256, run_id, thread_id, returned_doc_ids, cited_doc_ids, withheld, decision, target, outcome';

export const AUDIT_BOUNDS = {
  /** Ids and names: actors, run and thread ids, targets, outcomes (every stored id is bounded alike: domain/identifier.ts). */
  maxIdChars: MAX_ID_CHARS,
  /** A question or query as recorded (requests bound them far lower; this is the store's own guard). */
  maxQuestionChars: 100_000,
  /** Doc ids per list (returned, cited). */
  maxDocIds: 1_000,
} as const;

const SHA256_HEX = /^[0-9a-f]{64}$/;

const checkId = (field: string, value: string | undefined, required = false): void => {
  if (value === undefined) {
    if (required) throw new ValidationError(`An audit entry needs ${field}.`);
    return;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > AUDIT_BOUNDS.maxIdChars) {
    throw new ValidationError(`An audit entry's ${field} must be 1 to ${AUDIT_BOUNDS.maxIdChars} characters.`);
  }
};

const checkDocIds = (field: string, ids: string[] | undefined): void => {
  if (ids === undefined) return;
  if (
    !Array.isArray(ids) ||
    ids.length > AUDIT_BOUNDS.maxDocIds ||
    ids.some((id) => typeof id !== 'string' || id.length === 0 || id.length > AUDIT_BOUNDS.maxIdChars)
  ) {
    throw new ValidationError(`An audit entry's ${field} must be at most ${AUDIT_BOUNDS.maxDocIds} non-empty doc ids.`);
  }
};

/** Refuses a malformed entry with a message that names the field. */
export function validateAuditEntry(entry: AuditEntryWrite): void {
  checkId('actor', entry.actor, true);
  if (!(AUDIT_ACTIONS as readonly string[]).includes(entry.action)) {
    throw new ValidationError(`Unknown audit action ${JSON.stringify(entry.action)}.`, {
      hint: `Use one of ${AUDIT_ACTIONS.join(', ')}.`,
    });
  }
  if (entry.surface !== undefined && !(AUDIT_SURFACES as readonly string[]).includes(entry.surface)) {
    throw new ValidationError(`Unknown audit surface ${JSON.stringify(entry.surface)}.`, {
      hint: `Use one of ${AUDIT_SURFACES.join(', ')}.`,
    });
  }
  if (
    entry.question !== undefined &&
    (typeof entry.question !== 'string' || entry.question.length > AUDIT_BOUNDS.maxQuestionChars)
  ) {
    throw new ValidationError(`An audit entry's question must be at most ${AUDIT_BOUNDS.maxQuestionChars} characters.`);
  }
  if (entry.questionSha256 !== undefined && !SHA256_HEX.test(entry.questionSha256)) {
    throw new ValidationError("An audit entry's question_sha256 must be 64 lowercase hex digits.");
  }
  for (const field of ['runId', 'threadId', 'target', 'outcome'] as const) checkId(field, entry[field]);
  checkDocIds('returned doc ids', entry.returnedDocIds);
  checkDocIds('cited doc ids', entry.citedDocIds);
  if (
    entry.withheld !== undefined &&
    !(Number.isInteger(entry.withheld) && entry.withheld >= 0 && entry.withheld <= 1_000_000)
  ) {
    throw new ValidationError("An audit entry's withheld count must be a whole number from 0.");
  }
  if (entry.decision !== undefined && !['approve', 'edit', 'reject'].includes(entry.decision)) {
    throw new ValidationError(`Unknown approval decision ${JSON.stringify(entry.decision)}.`, {
      hint: 'Use approve, edit or reject.',
    });
  }
}

/** The query with its times normalised to the stored form (UTC ISO), or a ValidationError naming the bad filter. */
export function normalizeAuditQuery(query: AuditQuery): AuditQuery {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_AUDIT_PAGE) {
    throw new ValidationError(`The audit page limit must be 1 to ${MAX_AUDIT_PAGE}.`);
  }
  if (query.beforeId !== undefined && !(Number.isSafeInteger(query.beforeId) && query.beforeId > 0)) {
    throw new ValidationError('The audit cursor must be a positive entry id.', {
      hint: 'Pass the next_cursor of the previous page as it was.',
    });
  }
  if (query.action !== undefined && !(AUDIT_ACTIONS as readonly string[]).includes(query.action)) {
    throw new ValidationError(`Unknown audit action ${JSON.stringify(query.action)}.`, {
      hint: `Use one of ${AUDIT_ACTIONS.join(', ')}.`,
    });
  }
  checkFilter('actor', query.actor);
  checkFilter('run_id', query.runId);
  return {
    ...query,
    ...(query.since !== undefined ? { since: isoTime('since', query.since) } : {}),
    ...(query.until !== undefined ? { until: isoTime('until', query.until) } : {}),
  };
}

const checkFilter = (field: string, value: string | undefined): void => {
  if (value !== undefined && (value.length === 0 || value.length > AUDIT_BOUNDS.maxIdChars)) {
    throw new ValidationError(`The audit filter ${field} must be 1 to ${AUDIT_BOUNDS.maxIdChars} characters.`);
  }
};

function isoTime(field: string, text: string): string {
  const ms = Date.parse(text);
  if (text.length > 64 || Number.isNaN(ms)) {
    throw new ValidationError(`The audit filter ${field} is not a time: ${JSON.stringify(text.slice(0, 64))}.`, {
      hint: 'Use an ISO 8601 time or date, e.g. 2026-12-03T19:00:00Z or 2026-12-03.',
    });
  }
  return new Date(ms).toISOString();
}

/**
 * An entry's written fields but its time, in a fixed order: the columns `actor … outcome` of the audit log, as
 * PostgreSQL's insert binds them and as the chain value covers them (after the time).
 */
export const auditFields = (entry: Omit<AuditEntry, 'id' | 'at'>): unknown[] => [
  entry.actor,
  entry.action,
  entry.surface ?? null,
  entry.question ?? null,
  entry.questionSha256 ?? null,
  entry.runId ?? null,
  entry.threadId ?? null,
  entry.returnedDocIds ?? null,
  entry.citedDocIds ?? null,
  entry.withheld ?? null,
  entry.decision ?? null,
  entry.target ?? null,
  entry.outcome ?? null,
];

/** One entry as its chain value covers it: every field but the id, in a fixed order. */
const chainedFields = (entry: AuditEntry): unknown[] => [entry.at, ...auditFields(entry)];

/** An entry's chain value: SHA-256 of the previous entry's value and of the entry's fields. */
export const auditChain = (previous: string, entry: AuditEntry): string =>
  createHash('sha256')
    .update(previous)
    .update('\n')
    .update(JSON.stringify(chainedFields(entry)))
    .digest('hex');

/** Pages of the log in id order, after an id, with each entry's stored chain value (null before the chain began). */
export type AuditChainPages = (
  afterId: number,
  limit: number,
) => Promise<{ entry: AuditEntry; chain: string | null }[]>;

const VERIFY_PAGE = 1_000;

/**
 * Walks the log in id order: entries written before the chain began (no value) may only come first; from the first
 * chained entry on, each value must follow from the one before.
 */
export async function verifyAuditChain(pages: AuditChainPages): Promise<AuditChainReport> {
  let entries = 0;
  let previous = '';
  let chained = false;
  let afterId = 0;
  for (let page = await pages(afterId, VERIFY_PAGE); page.length > 0; page = await pages(afterId, VERIFY_PAGE)) {
    for (const { entry, chain } of page) {
      entries++;
      afterId = entry.id;
      if (chain === null) {
        if (chained) return { entries, head: previous, broken: { id: entry.id, reason: 'it has no chain value' } };
        continue;
      }
      const expected = auditChain(previous, entry);
      if (chain !== expected)
        return {
          entries,
          head: previous,
          broken: {
            id: entry.id,
            reason: chained
              ? 'its chain value does not follow from the entry before it (it or one before it was changed or removed)'
              : 'its chain value does not follow from its own fields',
          },
        };
      chained = true;
      previous = chain;
    }
  }
  return { entries, head: previous };
}

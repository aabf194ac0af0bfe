/** What an audit entry records: a search, an ask (one run's end), an approval decision, an admin action, or a read of content. */
export const AUDIT_ACTIONS = [
  'search',
  'ask',
  'approval',
  'user.add',
  'user.update',
  'key.create',
  'key.revoke',
  // An admin ended a user's browser session (target: the session id; outcome: whose).
  'session.revoke',
  'document.upload',
  'document.delete',
  // Content read outside a search or an ask: SQL over ingested tables, a document's file or resource.
  'table.query',
  'document.read',
  // A user rated a run's answer (outcome: up or down), or withdrew their rating.
  'feedback.rate',
  'feedback.withdraw',
  // A run's webhook was delivered or given up on (outcome: delivered or failed; target: the receiver's host).
  'webhook.delivery',
  // The ACL of a shared Store API namespace was set (outcome: created or changed; target: the namespace's root).
  'store.acl',
  // The directory (SCIM) changed a user or a group: deactivated, activated or deleted a user (target: the user);
  // added, changed or deleted a group (target: the group's name; outcome: what changed).
  'user.deactivate',
  'user.activate',
  'user.delete',
  'group.add',
  'group.update',
  'group.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The front end an action came through, where it is known (a run recovered by another process has none): the HTTP
 * API, the LangGraph API, the OpenAI-compatible route, the CLI, MCP, and the in-process framework adapters.
 */
export const AUDIT_SURFACES = [
  'http',
  'langgraph',
  'openai',
  'cli',
  'mcp',
  'langchain',
  'ai-sdk',
  'cron',
  'scim',
] as const;
export type AuditSurface = (typeof AUDIT_SURFACES)[number];

export type AuditDecision = 'approve' | 'edit' | 'reject';

/** One entry as it is appended. Fields that do not apply to its action are absent. */
export interface AuditEntryWrite {
  /** The principal's id: a user name, or a reserved id (`evident:admin-key`, `evident:local`). */
  actor: string;
  action: AuditAction;
  surface?: AuditSurface;
  /** The question or search query, verbatim (config `audit.questions: text`)… */
  question?: string;
  /** …or its SHA-256 in hex (`audit.questions: hash`, the default). */
  questionSha256?: string;
  runId?: string;
  threadId?: string;
  /** Distinct doc ids of what the principal got back (search results; a run's evidence), in rank order. */
  returnedDocIds?: string[];
  /** Distinct doc ids the answer cites. */
  citedDocIds?: string[];
  /** How many documents were withheld by permissions (`src/audit/withheld-count.ts`): a count, never which. */
  withheld?: number;
  /** With `approval`: the decision; the decider is the actor. */
  decision?: AuditDecision;
  /** What an admin action or an approval concerned: a user, a key id, a doc id, a tool. */
  target?: string;
  /** How a run ended (`answered`, `refused`, `interrupted`, …) or what an action changed (`created`, …). */
  outcome?: string;
}

export interface AuditEntry extends AuditEntryWrite {
  /** Monotonic: a later append has a larger id. */
  id: number;
  /** ISO time of the append, on the store's clock. */
  at: string;
}

/** A filtered page of the log, newest first. */
export interface AuditQuery {
  actor?: string;
  action?: AuditAction;
  runId?: string;
  /** ISO times, inclusive. */
  since?: string;
  until?: string;
  /** Keyset paging: entries with an id below this (the previous page's last id). */
  beforeId?: number;
  /** At most `MAX_AUDIT_PAGE`. */
  limit: number;
}

/** The most entries one read returns. */
export const MAX_AUDIT_PAGE = 500;

/**
 * The audit log: append and read, nothing else. There is no update or delete through the port, and each backend's
 * schema refuses them too (SQLite triggers, a PostgreSQL trigger), so an entry once written stays as written.
 */
export interface AuditLog {
  /** Appends one entry (validated by `audit-rules.ts`) and returns it with its id and time. */
  appendAudit(entry: AuditEntryWrite): Promise<AuditEntry>;
  /** The entries matching the filters, newest first, at most `query.limit`. */
  listAudit(query: AuditQuery): Promise<AuditEntry[]>;
  /** Walks the whole log in order and checks its hash chain (`audit-rules.ts`): where it breaks, if it does. */
  verifyAudit(): Promise<AuditChainReport>;
}

/**
 * What `verifyAudit` found. Each entry's `chain` is the SHA-256 of the previous entry's and of the entry itself, so an
 * entry changed or removed in place (by a connection that dropped the triggers) breaks the chain from there on. Entries
 * removed from the end, or the whole log replaced with a new chain, are not detectable from the log alone: compare
 * `head` with one kept elsewhere.
 */
export interface AuditChainReport {
  entries: number;
  /** The chain value of the last entry ('' for an empty log): kept elsewhere, it anchors the log's end. */
  head: string;
  /** The first entry whose chain does not follow, and why; absent when the whole log follows. */
  broken?: { id: number; reason: string };
}

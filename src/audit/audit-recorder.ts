import type { DecidedApproval, EndedRun, RunAudit } from '../runs/run-audit.ts';
import type { AuditConfig } from '../config/audit-schema.ts';
import type { Principal } from '../domain/index.ts';
import type { AuditAction, AuditEntry, AuditLog, AuditSurface, DocumentStore } from '../store/store.ts';
import { questionFields } from './question-fields.ts';
import { countWithheld } from './withheld-count.ts';

/** An admin action as the front ends report it: who did what to which user, key or document, and through what. */
export interface AdminAction {
  actor: Principal;
  action: Extract<AuditAction, `${string}.${string}`>;
  target: string;
  surface: AuditSurface;
  outcome?: string;
}

/** A read of content outside a search or an ask, as `audited-reads.ts` reports it. */
export interface ReadRecord {
  principal: Principal;
  action: 'table.query' | 'document.read';
  surface: AuditSurface;
  /** The SQL of a table query (kept or hashed as questions are). */
  statement?: string;
  /** The document read. */
  target?: string;
  /** Distinct doc ids of what was read (the documents of the tables a query may read, the document of a file). */
  docIds?: string[];
  /** `ok`, or the error code the read ended with. */
  outcome: string;
}

/** A search as `auditedSearch` reports it. */
export interface SearchRecord {
  principal: Principal;
  query: string;
  surface: AuditSurface;
  /** Distinct doc ids of the results, in rank order. */
  returnedDocIds: string[];
  /** The search's top-k: the depth of the withheld count. */
  topK: number;
}

export interface AuditRecorderDeps {
  store: Pick<AuditLog, 'appendAudit'> & Pick<DocumentStore, 'keywordSearch' | 'getChunks'>;
  config: AuditConfig;
  /** The depth of the withheld count of an ask (the retrieval top-k). */
  askTopK: number;
}

/**
 * Turns what happened into audit entries: the question kept or hashed by config, the withheld count computed, the
 * actor named. Every write goes to the store's append-only log; a failure is the caller's to handle (a request fails,
 * the run engine logs it).
 */
export class AuditRecorder implements RunAudit {
  constructor(private readonly deps: AuditRecorderDeps) {}

  async search(record: SearchRecord): Promise<AuditEntry> {
    const withheld = await countWithheld(this.deps.store, record.query, record.principal, record.topK);
    return this.deps.store.appendAudit({
      actor: record.principal.id,
      action: 'search',
      surface: record.surface,
      ...questionFields(record.query, this.deps.config.questions),
      returnedDocIds: record.returnedDocIds,
      withheld,
    });
  }

  async runEnded({ run, principal, surface, evidenceDocIds, citedDocIds }: EndedRun): Promise<void> {
    // A run taken over from a process that died: its asker is the thread's owner, whose current rights are not the ones it ran with.
    const withheld = principal
      ? await countWithheld(this.deps.store, run.question, principal, this.deps.askTopK)
      : undefined;
    await this.deps.store.appendAudit({
      actor: principal?.id ?? run.user,
      action: 'ask',
      ...(surface ? { surface } : {}),
      ...questionFields(run.question, this.deps.config.questions),
      runId: run.runId,
      threadId: run.threadId,
      returnedDocIds: evidenceDocIds,
      citedDocIds,
      ...(withheld !== undefined ? { withheld } : {}),
      outcome: run.status,
    });
  }

  async approvalDecided({ run, decider, surface, decision, action }: DecidedApproval): Promise<void> {
    await this.deps.store.appendAudit({
      actor: decider.id,
      action: 'approval',
      ...(surface ? { surface } : {}),
      decision,
      // The tool and the pending action's id (its run and tool call): what exactly was decided.
      target: `${action.tool} ${action.approval_id}`,
      runId: run.runId,
      threadId: run.threadId,
    });
  }

  async read({ principal, action, surface, statement, target, docIds, outcome }: ReadRecord): Promise<AuditEntry> {
    return this.deps.store.appendAudit({
      actor: principal.id,
      action,
      surface,
      ...(statement !== undefined ? questionFields(statement, this.deps.config.questions) : {}),
      ...(target !== undefined ? { target } : {}),
      ...(docIds ? { returnedDocIds: docIds } : {}),
      outcome,
    });
  }

  async admin({ actor, action, target, surface, outcome }: AdminAction): Promise<AuditEntry> {
    return this.deps.store.appendAudit({ actor: actor.id, action, target, surface, ...(outcome ? { outcome } : {}) });
  }
}

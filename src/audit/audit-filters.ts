import { z } from 'zod';
import { pageQueryFields, queryText } from '../domain/page-query.ts';
import { ValidationError } from '../errors/index.ts';
import { AUDIT_ACTIONS, type AuditQuery } from '../store/store.ts';
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from './audit-limits.ts';

export { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT };

/** The filters and paging of an audit read, as query parameters (all text), snake_case like every surface. */
export const auditFiltersSchema = z
  .object({
    actor: queryText.optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    run_id: queryText.optional(),
    ...pageQueryFields(MAX_AUDIT_LIMIT),
  })
  .strict();

export type AuditFilters = z.input<typeof auditFiltersSchema>;

/** Query parameters (or CLI flags in the same names) to a store query; a bad one is `invalid_input` naming it. */
export function auditQueryOf(filters: Record<string, string | undefined>): AuditQuery {
  const defined = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
  const parsed = auditFiltersSchema.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || String((issue as { keys?: string[] } | undefined)?.keys?.[0] ?? 'filter');
    throw new ValidationError(`Invalid audit filter ${field}: ${issue?.message ?? 'not accepted'}.`, {
      hint: `Filters: actor, action (${AUDIT_ACTIONS.join(', ')}), run_id, since, until (ISO times), limit (1-${MAX_AUDIT_LIMIT}), cursor.`,
    });
  }
  const f = parsed.data;
  return {
    limit: f.limit ?? DEFAULT_AUDIT_LIMIT,
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.run_id ? { runId: f.run_id } : {}),
    ...(f.since ? { since: f.since } : {}),
    ...(f.until ? { until: f.until } : {}),
    ...(f.cursor ? { beforeId: f.cursor } : {}),
  };
}

import { z } from 'zod';
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from '../../../audit/audit-filters.ts';
import { AUDIT_ACTIONS, AUDIT_SURFACES } from '../../../store/store.ts';
import { operation, pathGroup } from '../operation.ts';

const entryJson = z
  .object({
    id: z.number().int().describe('Monotonic: a later entry has a larger id.'),
    at: z.string().describe("ISO time of the append (the store's clock)."),
    actor: z
      .string()
      .describe(
        "The principal: a user name, `evident:admin-key` (the server's admin key) or `evident:local` (the CLI).",
      ),
    action: z.enum(AUDIT_ACTIONS),
    surface: z.enum(AUDIT_SURFACES).optional(),
    question: z.string().optional().describe('The question or query verbatim, with `audit.questions: text`.'),
    question_sha256: z
      .string()
      .optional()
      .describe('Its SHA-256 (hex of the UTF-8 text), with `audit.questions: hash` (the default).'),
    run_id: z.string().optional(),
    thread_id: z.string().optional(),
    returned_doc_ids: z
      .array(z.string())
      .optional()
      .describe("Distinct doc ids of the search results, or of a run's evidence."),
    cited_doc_ids: z.array(z.string()).optional().describe('Distinct doc ids the answer cites.'),
    withheld: z
      .number()
      .int()
      .optional()
      .describe(
        'How many documents permissions withheld: of the documents of an unrestricted BM25 top-k for the same query, those the actor may not read. A count, never which.',
      ),
    decision: z.enum(['approve', 'edit', 'reject']).optional().describe("An approval's decision; the actor decided."),
    target: z
      .string()
      .optional()
      .describe('What an admin action or approval concerned: a user, key id, doc id, or tool and approval id.'),
    outcome: z.string().optional().describe("How a run ended, an upload's status, what a user change set."),
  })
  .strict();

/** What `GET /v1/audit` and `evident audit --json` answer: a page of entries, newest first. */
export const auditPageResponseJson = z
  .object({ entries: z.array(entryJson), next_cursor: z.string().nullable() })
  .strict();

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema,
});

export const auditPaths = pathGroup(
  { name: 'Audit', description: 'The append-only audit log: searches, asks, approvals and admin actions. Admin only.' },
  {
    '/v1/audit': {
      get: operation({
        id: 'listAudit',
        summary: 'Read the audit log',
        description:
          'Newest first, one page at a time: pass `next_cursor` as `cursor` for the next (older) page. An unknown or malformed filter is `invalid_input`.',
        access: 'admin',
        params: [
          query('actor', "Only this principal's entries."),
          query('action', 'Only this action.', { type: 'string', enum: [...AUDIT_ACTIONS] }),
          query('run_id', "Only this run's entries (its ask, an approval)."),
          query('since', 'From this ISO time or date, inclusive.'),
          query('until', 'Up to this ISO time or date, inclusive.'),
          query('limit', `Entries per page (default ${DEFAULT_AUDIT_LIMIT}, at most ${MAX_AUDIT_LIMIT}).`, {
            type: 'integer',
          }),
          query('cursor', 'The `next_cursor` of the previous page.'),
        ],
        responses: {
          200: { description: 'A page of entries.', json: auditPageResponseJson },
        },
      }),
    },
  },
);

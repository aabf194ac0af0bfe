import { isSmallTalk } from '../../core/small-talk.ts';
import { z } from 'zod';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { offlineTableRoute } from '../../table-sql/table-route.ts';
import { describeTables } from '../../core/tools/table-query.ts';
import type { RagNode } from '../rag-deps.ts';
import type { Route } from '../rag-state.ts';

const routeSchema = z.object({
  route: z
    .enum(['retrieve', 'table', 'both'])
    .describe(
      'table: compute the answer with SQL over the tables; retrieve: find it in the documents; both: it needs a value from the tables and text from the documents',
    ),
  reason: z.string(),
});

/**
 * Chooses the path: small talk is answered directly; with tables the principal may see, a question answered by
 * computing over them goes to the `table_query` tool (never arithmetic over chunks), everything else to retrieval.
 * With a model, the model makes that choice from the question and the tables' schemas (only those this principal may
 * see); the SQL is then written by the table step and checked by the tool's guard, and a table query that answers
 * nothing still falls back to retrieval. Offline, `offlineTableRoute` decides: the question→SQL strategy must plan it,
 * and the best passage of the documents' text must not explain the question better than the table does.
 */
export const routeQuestion: RagNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  if (isSmallTalk(question)) return { update: { route: 'direct' }, summary: 'direct: no retrieval needed' };
  const principal = state.principal;
  if (!principal) return { update: { route: 'retrieve' }, summary: 'retrieve' };
  const tables = await deps.store.listTables(principal);
  if (tables.length === 0) return { update: { route: 'retrieve' }, summary: 'retrieve: no tables' };
  const offline = async (): Promise<{ route: Route; reason: string }> => {
    if (state.sub_questions.length > 1) return { route: 'retrieve', reason: 'several information needs' };
    const decided = await offlineTableRoute(question, principal, deps.store);
    return { route: decided.route, reason: decided.reason };
  };
  const needs =
    state.sub_questions.length > 1 ? `\n\nIt asks for:\n${state.sub_questions.map((q) => `- ${q}`).join('\n')}` : '';
  const { value, strategy, errors } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'route_question',
      schemaName: 'route',
      schema: routeSchema,
      system:
        'Choose where the answer comes from. "table" when it is computed or looked up from rows of the tables listed (counts, sums, averages, minima, maxima, filters, groups, the row with the most …); ' +
        '"retrieve" when it is stated in the documents\' text (policies, contracts, descriptions) or the tables cannot answer it; ' +
        '"both" when it asks for a value from the tables and for something only the text states. Say why in reason.',
      prompt: `Tables:\n${describeTables(tables)}\n\nQuestion: ${question}${needs}`,
    },
    (output) => Promise.resolve(output),
    offline,
  );
  const decided = await value;
  return { update: { route: decided.route, errors }, summary: `${decided.route} (${strategy}): ${decided.reason}` };
};

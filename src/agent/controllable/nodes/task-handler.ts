import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { CONTROLLABLE_TOOLS, type ControllableTool } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { ANSWER_TASK_PREFIX } from '../offline-plan.ts';
import { offlineTablePlan } from '../../core/tools/table-query-answer.ts';
import { describeTables } from '../../core/tools/table-query.ts';

const SUMMARY_TASK = /\b(summar\w*|overview|main points|outline|gist|what is .+ about|key topics)\b/i;
const QUOTE_TASK = /\b(quote\w*|quotation|exact words|wording|verbatim|said|says|say|stated|states)\b/i;
const ANSWER_TASK = /^(answer|combine|compare)\b|\bfrom the (gathered |previous )?(context|answers|results)\b/i;

/** Offline routing by what the task asks: an overview → summaries, someone's words → quotes, answering → the context. */
export function chooseToolOffline(task: string): ControllableTool {
  if (ANSWER_TASK.test(task)) return 'answer_from_context';
  if (SUMMARY_TASK.test(task)) return 'retrieve_summaries';
  if (QUOTE_TASK.test(task)) return 'retrieve_quotes';
  return 'retrieve_chunks';
}

const routeSchema = z.object({ tool: z.enum(CONTROLLABLE_TOOLS), query: z.string().trim().min(2) });

/**
 * Takes the plan's next task and chooses its tool and the query (to retrieve with, to compute over tables, or to
 * answer). Offline, the run's first task goes to `table_query` when the shared question→SQL strategy plans the
 * question over a table the principal may see (as `rag` routes it); with a model, the model chooses, told which
 * tables there are.
 */
export const taskHandler: ControllableNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  const task = state.plan[0] ?? `${ANSWER_TASK_PREFIX} ${question}`;
  const tables = state.principal ? await deps.store.listTables(state.principal) : [];
  const tablePlan =
    !deps.chat && state.past_steps.length === 0 && state.principal && tables.length > 0
      ? await offlineTablePlan(question, state.principal, deps.store)
      : undefined;
  const done = state.past_steps
    .map((step, i) => `${i + 1}. ${step.task} → ${step.response || '(nothing found)'}`)
    .join('\n');
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'task_handler',
      schema: routeSchema,
      system:
        'Choose the tool for the task: retrieve_chunks (passages of documents), retrieve_summaries (chapter summaries: overviews, what a document is about), ' +
        'retrieve_quotes (notable sentences and quotations: exact wording, what someone said), ' +
        'table_query (computes over the ingested tables listed below: counts, sums, averages, extremes, rows that match; give the question the table answers), ' +
        'or answer_from_context (the task can be answered from what earlier tasks found). ' +
        'Give the query to retrieve with, or the question to answer.',
      prompt: `Task: ${task}\n\nQuestion: ${question}${done ? `\n\nDone so far:\n${done}` : ''}${tables.length ? `\n\nTables table_query can read:\n${describeTables(tables)}` : '\n\nNo tables are available to table_query.'}`,
    },
    (output) => output,
    () =>
      tablePlan
        ? { tool: 'table_query' as const, query: question }
        : { tool: chooseToolOffline(task), query: task.replace(ANSWER_TASK_PREFIX, '').trim() || question },
  );
  const { tool, query } = outcome.value;
  return {
    update: {
      curr_task: task,
      tool,
      query_to_retrieve_or_answer: query,
      curr_context: [],
      curr_evidence: [],
      response: '',
      response_support: [],
      relevant: null,
      grounded: null,
      relevance_retries: 0,
      groundedness_retries: 0,
      errors: outcome.errors,
    },
    summary: `${tool} (${outcome.strategy}): ${query}`,
  };
};

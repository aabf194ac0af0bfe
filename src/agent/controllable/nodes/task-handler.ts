import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { CONTROLLABLE_TOOLS, type ControllableTool } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { ANSWER_TASK_PREFIX } from '../offline-plan.ts';

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

/** Takes the plan's next task and chooses its tool and the query (to retrieve with, or to answer). */
export const taskHandler: ControllableNode = async (state, deps) => {
  const task = state.plan[0] ?? `${ANSWER_TASK_PREFIX} ${state.question}`;
  const done = state.past_steps.map((step, i) => `${i + 1}. ${step.task} → ${step.response || '(nothing found)'}`).join('\n');
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'task_handler',
      schema: routeSchema,
      system:
        'Choose the tool for the task: retrieve_chunks (passages of documents), retrieve_summaries (chapter summaries: overviews, what a document is about), ' +
        'retrieve_quotes (notable sentences and quotations: exact wording, what someone said), or answer_from_context (the task can be answered from what earlier tasks found). ' +
        'Give the query to retrieve with, or the question to answer.',
      prompt: `Task: ${task}\n\nQuestion: ${state.question}${done ? `\n\nDone so far:\n${done}` : ''}`,
    },
    (output) => output,
    () => ({ tool: chooseToolOffline(task), query: task.replace(ANSWER_TASK_PREFIX, '').trim() || state.question }),
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

import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import type { RetrievalTool } from '../controllable-state.ts';
import { findEntitiesOffline } from '../entities.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { ANSWER_TASK_PREFIX } from '../offline-plan.ts';

const QUESTION_WORDS = new Set(
  'what which who whom whose when where why how is are was were do does did the a an of in on for to by with from and or that this it its was been be'.split(
    ' ',
  ),
);

/** The query's names and its words that are not question or function words. */
function keywords(query: string): string {
  const names = findEntitiesOffline(query).map((entity) => entity.text);
  const rest = names.reduce((text, name) => text.replace(name, ' '), query.replace(ANSWER_TASK_PREFIX, ''));
  const words = (rest.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter(
    (word) => !QUESTION_WORDS.has(word.toLowerCase()),
  );
  return [...names, ...words].join(' ');
}

/**
 * Offline rewrites, one per retry: first the query's keywords only; then the broadest index (chunks) with those
 * keywords, or, already on chunks, the names alone.
 */
export function rewriteOffline(
  query: string,
  tool: RetrievalTool,
  attempt: number,
): { query: string; tool: RetrievalTool } {
  const keyed = keywords(query) || query;
  if (attempt <= 1) return { query: keyed, tool };
  if (tool !== 'retrieve_chunks') return { query: keyed, tool: 'retrieve_chunks' };
  const names = findEntitiesOffline(query)
    .map((entity) => entity.text)
    .join(' ');
  return { query: names || keyed, tool };
}

const rewriteSchema = z.object({ query: z.string().trim().min(2) });

/** Nothing relevant came back: a new query (and, offline on the second retry, a broader index) for the next try. */
export const rewriteQuery: ControllableNode = async (state, deps) => {
  const attempt = state.relevance_retries + 1;
  const current = state.query_to_retrieve_or_answer || state.curr_task;
  const tool: RetrievalTool =
    state.tool === '' || state.tool === 'answer_from_context' || state.tool === 'table_query'
      ? 'retrieve_chunks'
      : state.tool;
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'rewrite_query',
      schema: rewriteSchema,
      system:
        'The query found nothing relevant in the document collection. Rewrite it as a better search query for the same task: other words, the key names and terms.',
      prompt: `Task: ${state.curr_task}\nQuery that found nothing relevant: ${current}`,
    },
    (output) => ({ query: output.query, tool }),
    () => rewriteOffline(current, tool, attempt),
  );
  return {
    update: {
      query_to_retrieve_or_answer: outcome.value.query,
      tool: outcome.value.tool,
      relevance_retries: attempt,
      errors: outcome.errors,
    },
    summary: `retry ${attempt}/${deps.maxRelevanceRetries} (${outcome.strategy}): ${outcome.value.tool} "${outcome.value.query}"`,
  };
};

import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { itemCoverage, RELEVANT_COVERAGE } from '../offline-judgement.ts';
import { formatItems } from './keep-relevant.ts';

const relevanceSchema = z.object({ relevant: z.boolean(), reason: z.string() });

/**
 * Is what was kept relevant enough to answer the task from? Nothing kept is not, without asking a model; offline,
 * some kept item must cover most of the query's terms. Not relevant: the graph rewrites the query and retries
 * (bounded), then gives the task up.
 */
export const relevanceCheck: ControllableNode = async (state, deps) => {
  const query = state.query_to_retrieve_or_answer || state.curr_task;
  const kept = state.curr_context;
  const outcome =
    kept.length === 0
      ? {
          value: { relevant: false, reason: 'nothing relevant was retrieved' },
          strategy: 'no content',
          errors: state.errors,
        }
      : await modelOrOffline(
          deps,
          state.errors,
          {
            node: 'relevance_check',
            schema: relevanceSchema,
            system:
              'Decide whether the context is relevant to the query: it must be about what the query asks, enough to try answering it.',
            prompt: `Query: ${query}\n\nContext:\n${formatItems(kept)}`,
          },
          (output) => output,
          () => {
            const best = Math.max(...kept.map((item) => itemCoverage(query, item)));
            return {
              relevant: best >= RELEVANT_COVERAGE,
              reason: `best coverage of the query's terms ${best.toFixed(2)}`,
            };
          },
        );
  const { relevant, reason } = outcome.value;
  const exhausted = !relevant && state.relevance_retries >= deps.maxRelevanceRetries;
  return {
    update: { relevant, errors: outcome.errors },
    summary: `${relevant ? 'relevant' : exhausted ? `not relevant after ${state.relevance_retries} rewrite(s): task given up` : 'not relevant: rewrite'} (${reason})`,
  };
};

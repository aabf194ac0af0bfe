import { z } from 'zod';
import type { Evidence } from '../../../domain/evidence.ts';
import type { ControllableNode } from '../controllable-deps.ts';
import type { ContextItem } from '../controllable-state.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { keepRelevantOffline } from '../offline-judgement.ts';

const keepSchema = z.object({ relevant_ids: z.array(z.string()) });

/** Items as the model sees them: each under its id. */
export const formatItems = (items: readonly ContextItem[]): string =>
  items
    .map(
      (item) =>
        `[id: ${item.id}] [${item.kind} of ${item.doc_id}]${item.title ? ` (${item.title})` : ''}\n${item.text}`,
    )
    .join('\n\n');

const mergeEvidence = (known: readonly Evidence[], added: readonly Evidence[]): Evidence[] => {
  const byId = new Map(known.map((item) => [item.chunk_id, item]));
  for (const item of added) {
    const existing = byId.get(item.chunk_id);
    byId.set(
      item.chunk_id,
      existing ? { ...existing, queries: [...new Set([...existing.queries, ...item.queries])] } : item,
    );
  }
  return [...byId.values()];
};

/**
 * Keeps only the retrieved items relevant to the query (the model's choice among the ids it was shown, or the
 * offline term-coverage test); the kept items join the run's context and their chunks its citable evidence.
 */
export const keepRelevant: ControllableNode = async (state, deps) => {
  const query = state.query_to_retrieve_or_answer || state.curr_task;
  const items = state.curr_context;
  const outcome =
    items.length === 0
      ? { value: [] as ContextItem[], strategy: 'nothing retrieved', errors: state.errors }
      : await modelOrOffline(
          deps,
          state.errors,
          {
            node: 'keep_relevant',
            schema: keepSchema,
            system:
              'Return the ids of the items that contain information relevant to the query. Leave out items that are off-topic.',
            prompt: `Query: ${query}\n\nItems:\n${formatItems(items)}`,
          },
          (output) => items.filter((item) => output.relevant_ids.includes(item.id)),
          () => keepRelevantOffline(query, items),
        );
  const kept = outcome.value;
  const keptChunks = new Set(kept.flatMap((item) => item.chunk_ids));
  const keptEvidence = state.curr_evidence.filter((item) => keptChunks.has(item.chunk_id));
  const known = new Set(state.aggregated_context.map((item) => item.id));
  return {
    update: {
      curr_context: kept,
      curr_evidence: keptEvidence,
      aggregated_context: [...state.aggregated_context, ...kept.filter((item) => !known.has(item.id))],
      evidence: mergeEvidence(state.evidence, keptEvidence),
      errors: outcome.errors,
    },
    summary: `kept ${kept.length} of ${items.length} (${outcome.strategy})${kept.length ? `: ${kept.map((item) => item.id).join(', ')}` : ''}`,
  };
};

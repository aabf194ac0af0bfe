import { z } from 'zod';
import type { ControllableNode } from '../controllable-deps.ts';
import { anonymize, findEntitiesOffline } from '../entities.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';

const entitiesSchema = z.object({
  entities: z
    .array(z.object({ text: z.string().trim().min(1), type: z.enum(['identifier', 'organisation', 'name', 'title']) }))
    .max(20),
});

/**
 * Replaces the question's named entities by variables (ENTITY_1, …) and keeps the mapping, so the planner plans
 * the shape of the question without its names. Entities come from the model (NER) or the offline recogniser; only
 * those the question really contains are replaced.
 */
export const anonymizeQuestion: ControllableNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  const outcome = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'anonymize',
      schema: entitiesSchema,
      system:
        'List the named entities of the question: people, organisations, places, works, products, identifiers (contract numbers, ticket ids). Copy each exactly as written in the question. Do not answer it.',
      prompt: `Question: ${question}`,
    },
    (output) => output.entities,
    () => findEntitiesOffline(question),
  );
  const { anonymized, mapping } = anonymize(question, outcome.value);
  const count = Object.keys(mapping).length;
  return {
    update: { anonymized_question: anonymized, mapping, errors: outcome.errors },
    summary: `${count} entit${count === 1 ? 'y' : 'ies'} (${outcome.strategy}): ${anonymized}`,
  };
};

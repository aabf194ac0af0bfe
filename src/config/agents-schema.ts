import { z } from 'zod';

/** A whole number within [min, max]; every bound a run works within is itself bounded. */
const count = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);

/**
 * The bounds each agent runs within. The defaults are the values the agents were built and benchmarked with;
 * the agent code reads them from `config.agents` when it builds an agent. `react` also works within rag's
 * bounds (memory, evidence, retries: the shared nodes' settings), so it lists only its own loop's.
 */
export const agentBoundsSchemas = {
  rag: z
    .object({
      maxEvidence: count(1, 50, 8).describe(
        "Evidence chunks kept after merging the sub-questions' results (and passed to generate).",
      ),
      maxCitationRetries: count(0, 5, 1).describe(
        'Further generate attempts after the citation check dropped every citation.',
      ),
      maxSchemaRetries: count(0, 5, 2).describe('Further attempts when a structured model answer does not validate.'),
      historyWindow: count(0, 100, 12).describe(
        'Conversation turns kept verbatim; older ones are folded into the running summary.',
      ),
      memoryLimit: count(0, 20, 3).describe('Long-term memories loaded per run (0: none).'),
      memoryFloor: z
        .number()
        .min(0)
        .max(1)
        .default(0.35)
        .describe(
          'Relevance a memory needs to be loaded: the larger of its cosine similarity and its keyword coverage of the question.',
        ),
    })
    .strict(),
  react: z
    .object({
      maxIterations: count(1, 50, 10).describe(
        'Model (or offline strategy) decisions per run; at the bound the run stops with a refusal.',
      ),
      fusionQueries: count(1, 8, 4).describe(
        'Search queries RAG fusion runs per knowledge_base call, the question itself included (the model writes at most 8).',
      ),
      fusionDepth: count(1, 200, 10).describe('Results taken per fusion query before fusing.'),
    })
    .strict(),
  controllable: z
    .object({
      maxTasks: count(2, 20, 6).describe('Tasks a plan may hold, the final answer task included (so at least 2).'),
      maxRelevanceRetries: count(0, 5, 2).describe(
        'Query rewrites per task after the relevance check found nothing relevant.',
      ),
      maxGroundednessRetries: count(0, 5, 1).describe(
        'Further answers per task after the groundedness check rejected one.',
      ),
      maxReplans: count(1, 50, 8).describe('Tasks executed (replans) per run, whatever the planner says.'),
      maxCitationRetries: count(0, 5, 1).describe(
        'Further final answers after the citation check dropped every citation.',
      ),
      maxSchemaRetries: count(0, 5, 2).describe('Further attempts when a structured model answer does not validate.'),
    })
    .strict(),
} as const;

export type AgentBoundsName = keyof typeof agentBoundsSchemas;

/** The evidence gate's operating point (core/evidence-gate): higher values refuse more and answer wrongly less. */
export const gateThresholdsSchema = z
  .object({
    attribute: z
      .number()
      .min(0)
      .max(1)
      .default(0.25)
      .describe(
        "Share of the asked attribute's words (rarer words weighing more) a cited sentence must state beside the value.",
      ),
    ambiguity: z
      .number()
      .min(0.5)
      .max(1)
      .default(0.85)
      .describe(
        "A rival value whose tie to the question comes this near the best one's (as a share of it) leaves the question undecided, and the gate refuses.",
      ),
  })
  .strict()
  .prefault({});

export const agentsSchema = z
  .object({
    rag: agentBoundsSchemas.rag.prefault({}),
    react: agentBoundsSchemas.react.prefault({}),
    controllable: agentBoundsSchemas.controllable.prefault({}),
    evidenceGate: z
      .enum(['enforce', 'off'])
      .default('enforce')
      .describe(
        "The evidence gate every agent's answer passes before finalize: `enforce` narrows an answer to the one value its cited evidence ties to the question or refuses, saying what is missing; `off` records the gate's verdict as a step and returns the answer as the agent produced it (to measure what the agents propose without it).",
      ),
    evidenceGateThresholds: gateThresholdsSchema,
  })
  .strict()
  .prefault({});

export type AgentsConfig = z.infer<typeof agentsSchema>;

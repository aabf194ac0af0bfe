import type { LayerName } from '../layers/layer-result.ts';

/**
 * The CI gate's floors for sample-corpus.jsonl, offline: per agent, the overall and per-layer pass rates measured on
 * the date below, less the margin (rounded down). Offline agents are deterministic, so a drop is a real regression;
 * the margin only lets a layer scored on many cases lose one or two while another improves. A layer an agent did not
 * expose (no case scored it) has no floor. After a deliberate change, measure again with the command and update.
 */
export const SAMPLE_CORPUS_THRESHOLDS = {
  measured_on: '2026-11-29',
  command: 'npx evident eval run src/eval/sets/sample-corpus.jsonl --corpus samples/corpus --users samples/users.json --agent all --json',
  margin: 0.05,
  agents: {
    // measured: overall 59/91, rewrite 11/12, retrieval 62/63, rerank 62/63, answerability 64/90, citations 38/63, schema 90/90, answer 45/74, tools 14/16
    rag: { overall: 0.59, rewrite: 0.86, retrieval: 0.93, rerank: 0.93, answerability: 0.66, citations: 0.55, schema: 0.95, answer: 0.55, tools: 0.82 },
    // measured: overall 59/91, rewrite 11/12, rerank 62/63, answerability 65/90, citations 39/63, schema 90/90, answer 45/74, tools 89/91
    react: { overall: 0.59, rewrite: 0.86, rerank: 0.93, answerability: 0.67, citations: 0.56, schema: 0.95, answer: 0.55, tools: 0.92 },
    // measured: overall 51/91, rerank 60/63, answerability 63/90, citations 48/73, schema 91/91, answer 37/74, tools 78/91
    controllable: { overall: 0.51, rerank: 0.9, answerability: 0.65, citations: 0.6, schema: 0.95, answer: 0.45, tools: 0.8 },
  },
} as const satisfies {
  measured_on: string;
  command: string;
  margin: number;
  agents: Record<string, Partial<Record<LayerName | 'overall', number>>>;
};

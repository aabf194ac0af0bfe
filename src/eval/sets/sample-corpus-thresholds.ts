import type { LayerName } from '../layers/layer-result.ts';

/**
 * The CI gate's floors for sample-corpus.jsonl, offline: per agent, the overall and per-layer pass rates measured on
 * the date below, less the margin (rounded down). Offline agents are deterministic, so a drop is a real regression;
 * the margin only lets a layer scored on many cases lose one or two while another improves. A layer an agent did not
 * expose (no case scored it) has no floor. After a deliberate change, measure again with the command and update.
 */
export const SAMPLE_CORPUS_THRESHOLDS = {
  measured_on: '2026-12-02',
  command: 'npx evident eval run src/eval/sets/sample-corpus.jsonl --corpus samples/corpus --users samples/users.json --agent all --json',
  margin: 0.05,
  agents: {
    // measured: overall 63/91, rewrite 11/12, retrieval 56/63, rerank 56/63, answerability 80/90, citations 59/70, schema 90/90, answer 57/74, tools 22/23
    rag: { overall: 0.64, rewrite: 0.86, retrieval: 0.83, rerank: 0.83, answerability: 0.83, citations: 0.79, schema: 0.95, answer: 0.72, tools: 0.9 },
    // measured: overall 62/91, rewrite 11/12, rerank 54/63, answerability 80/90, citations 57/70, schema 90/90, answer 56/74, tools 90/91
    react: { overall: 0.63, rewrite: 0.86, rerank: 0.8, answerability: 0.83, citations: 0.76, schema: 0.95, answer: 0.7, tools: 0.93 },
    // measured: overall 61/91, rerank 54/63, answerability 78/90, citations 60/71, schema 90/90, answer 54/74, tools 90/91
    controllable: { overall: 0.62, rerank: 0.8, answerability: 0.81, citations: 0.79, schema: 0.95, answer: 0.67, tools: 0.93 },
  },
} as const satisfies {
  measured_on: string;
  command: string;
  margin: number;
  agents: Record<string, Partial<Record<LayerName | 'overall', number>>>;
};

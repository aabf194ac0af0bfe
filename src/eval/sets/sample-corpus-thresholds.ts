import type { LayerName } from '../layers/layer-result.ts';

/**
 * The CI gate's floors for sample-corpus.jsonl, offline: per agent, the overall and per-layer pass rates measured on
 * the date below, less the margin (rounded down). Offline agents are deterministic, so a drop is a real regression;
 * the margin only lets a layer scored on many cases lose one or two while another improves. A layer an agent did not
 * expose (no case scored it) has no floor. After a deliberate change, measure again with the command and update.
 */
export const SAMPLE_CORPUS_THRESHOLDS = {
  measured_on: '2026-12-02',
  command:
    'npx evident eval run src/eval/sets/sample-corpus.jsonl --corpus samples/corpus --users samples/users.json --agent all --json',
  margin: 0.05,
  agents: {
    // measured: overall 78/91, rewrite 12/12, retrieval 62/63, rerank 62/63, answerability 83/90, citations 71/78, schema 90/90, answer 65/74, tools 19/19
    rag: {
      overall: 0.8,
      rewrite: 0.95,
      retrieval: 0.93,
      rerank: 0.93,
      answerability: 0.87,
      citations: 0.86,
      schema: 0.95,
      answer: 0.82,
      tools: 0.95,
    },
    // measured: overall 76/91, rewrite 12/12, rerank 62/63, answerability 81/90, citations 73/80, schema 90/90, answer 65/74, tools 91/91
    react: {
      overall: 0.78,
      rewrite: 0.95,
      rerank: 0.93,
      answerability: 0.85,
      citations: 0.86,
      schema: 0.95,
      answer: 0.82,
      tools: 0.95,
    },
    // measured: overall 73/91, rewrite 12/12, rerank 60/63, answerability 80/90, citations 73/80, schema 90/90, answer 62/74, tools 91/91
    controllable: {
      overall: 0.75,
      rewrite: 0.95,
      rerank: 0.9,
      answerability: 0.83,
      citations: 0.86,
      schema: 0.95,
      answer: 0.78,
      tools: 0.95,
    },
  },
} as const satisfies {
  measured_on: string;
  command: string;
  margin: number;
  agents: Record<string, Partial<Record<LayerName | 'overall', number>>>;
};

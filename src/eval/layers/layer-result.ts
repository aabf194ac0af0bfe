/** The layers of an agent run, in pipeline order: the first failing one is where a wrong answer began. */
export const LAYERS = [
  'rewrite',
  'retrieval',
  'rerank',
  'answerability',
  'citations',
  'schema',
  'answer',
  'tools',
] as const;
export type LayerName = (typeof LAYERS)[number];

/** `n/a`: the case expects nothing of the layer, or the agent does not expose it; neither a pass nor a failure. */
export type LayerStatus = 'pass' | 'fail' | 'n/a';

export interface LayerResult {
  status: LayerStatus;
  /** Why, in a few words (what was missing, what was found). */
  detail: string;
  /** Per-case figures the summary averages (hit@k, recall, validity, …). */
  metrics?: Record<string, number>;
}

export const notExpected: LayerResult = { status: 'n/a', detail: 'no expectation' };
export const notExposed: LayerResult = { status: 'n/a', detail: 'not exposed by the agent' };

export const passOrFail = (passed: boolean, detail: string, metrics?: Record<string, number>): LayerResult => ({
  status: passed ? 'pass' : 'fail',
  detail,
  ...(metrics ? { metrics } : {}),
});

/** The first failing layer in pipeline order, or null when none failed. */
export function firstFailure(layers: Readonly<Record<LayerName, LayerResult>>): LayerName | null {
  return LAYERS.find((layer) => layers[layer].status === 'fail') ?? null;
}

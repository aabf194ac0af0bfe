/** Lowercased, accents and punctuation removed, articles dropped, whitespace collapsed (SQuAD-style answer normalisation). */
export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether the answer text contains the gold answer or one of its aliases, as whole words after normalisation. */
export function containsAnswer(answer: string, gold: readonly string[]): boolean {
  const text = ` ${normalizeAnswer(answer)} `;
  return gold.map(normalizeAnswer).some((g) => g.length > 0 && text.includes(` ${g} `));
}

/** Share of the supporting paragraphs found among the evidence's documents (1 when there are none to find). */
export function supportRecall(evidenceDocIds: readonly string[], supporting: readonly string[]): number {
  if (supporting.length === 0) return 1;
  const found = new Set(evidenceDocIds);
  return supporting.filter((id) => found.has(id)).length / supporting.length;
}

export interface QuestionOutcome {
  recall: number;
  /** The same over the first five evidence documents: recall at the budget of rag's default top-k. */
  recallAt5: number;
  allSupporting: boolean;
  contains: boolean;
  answered: boolean;
  evidence: number;
  ms: number;
  failed: boolean;
}

export interface AgentFigures {
  questions: number;
  supportRecall: number;
  supportRecallAt5: number;
  allSupportingRate: number;
  containment: number;
  answeredRate: number;
  meanEvidence: number;
  p50Ms: number;
  failures: number;
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

export function figuresOf(outcomes: readonly QuestionOutcome[]): AgentFigures {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    questions: outcomes.length,
    supportRecall: mean(outcomes.map((o) => o.recall)),
    supportRecallAt5: mean(outcomes.map((o) => o.recallAt5)),
    allSupportingRate: mean(outcomes.map((o) => (o.allSupporting ? 1 : 0))),
    containment: mean(outcomes.map((o) => (o.contains ? 1 : 0))),
    answeredRate: mean(outcomes.map((o) => (o.answered ? 1 : 0))),
    meanEvidence: mean(outcomes.map((o) => o.evidence)),
    p50Ms: ms[Math.floor(ms.length / 2)] ?? 0,
    failures: outcomes.filter((o) => o.failed).length,
  };
}

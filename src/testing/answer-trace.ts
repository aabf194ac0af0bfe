import type { AgentTrace } from '../runs/run-trace.ts';

/** The trace of a run that only answered (or refused): what eval scoring tests feed `scoreCase` with. */
export const answerTrace = (answer: string, answerable: boolean): AgentTrace => ({
  standalone_question: null,
  retrieved_doc_ids: null,
  kept_doc_ids: null,
  evidence: [],
  answer: { answer, answerable, confidence: 0.5, citations: [], missing_information: [] },
  tool_calls: null,
  status: answerable ? 'answered' : 'refused',
  errors: [],
});

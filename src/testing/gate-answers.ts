import type { Answer, Citation } from '../domain/answer.ts';
import type { Evidence } from '../domain/evidence.ts';

/** A chunk of evidence as a run holds it, for the evidence gate's tests. */
export const evidenceChunk = (id: string, text: string, doc = id.split('#')[0] as string): Evidence => ({
  chunk_id: id,
  doc_id: doc,
  source: doc,
  title: doc,
  heading: '',
  text,
  score: 1,
  queries: [],
});

/** A citation of `quote` in `chunk`. */
export const citeIn = (chunk: Evidence, quote: string): Citation => ({
  chunk_id: chunk.chunk_id,
  doc_id: chunk.doc_id,
  source: chunk.source,
  quote,
});

/** An answer a model (or strategy) proposes, confident and cited, as the gate receives it. */
export const proposedAnswer = (text: string, citations: Citation[]): Answer => ({
  answer: text,
  answerable: true,
  confidence: 0.95,
  citations,
  missing_information: [],
});

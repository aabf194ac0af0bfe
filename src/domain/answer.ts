import { z } from 'zod';

/** One cited passage: which retrieved chunk, and the exact words the answer relies on. */
export const citationSchema = z.object({
  chunk_id: z.string().min(1),
  doc_id: z.string().min(1),
  source: z.string(),
  page: z.number().int().positive().optional(),
  quote: z.string().min(1),
});
export type Citation = z.infer<typeof citationSchema>;

/** The object every agent ends with (ARCHITECTURE §5). */
export const answerSchema = z.object({
  answer: z.string(),
  answerable: z.boolean(),
  confidence: z.number().min(0).max(1),
  citations: z.array(citationSchema),
  missing_information: z.array(z.string()),
});
export type Answer = z.infer<typeof answerSchema>;

export const REFUSAL_TEXT = "I don't know based on the current evidence.";

/** The answer when evidence is insufficient: says so, and what is missing. */
export function refusal(missing: readonly string[], note?: string): Answer {
  const parts = [REFUSAL_TEXT];
  if (missing.length > 0) parts.push(`Missing: ${missing.join('; ')}.`);
  if (note) parts.push(note);
  return {
    answer: parts.join(' '),
    answerable: false,
    confidence: 0,
    citations: [],
    missing_information: [...missing],
  };
}

/** A chunk the run retrieved for this principal, as far as citation checking needs it. */
export interface CitableEvidence {
  chunkId: string;
  docId: string;
  text: string;
}

export type DroppedCitationReason = 'unknown_chunk' | 'doc_mismatch' | 'quote_not_found';

export interface CitationCheck {
  /** The answer with only the citations that passed. */
  answer: Answer;
  dropped: { citation: Citation; reason: DroppedCitationReason }[];
}

/** Collapses whitespace runs and unifies typographic quotes and dashes; content stays case-sensitive. */
export const normalizeForQuote = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Keeps the citations that name retrieved evidence (and its document) and whose quote occurs in that chunk's
 * text; drops the rest and says why. Evidence must be what the run retrieved for the asking principal, so a
 * citation can never point at text the principal may not see.
 */
export function checkCitations(answer: Answer, evidence: readonly CitableEvidence[]): CitationCheck {
  const byId = new Map(evidence.map((item) => [item.chunkId, item]));
  const normalized = new Map<string, string>();
  const kept: Citation[] = [];
  const dropped: CitationCheck['dropped'] = [];
  for (const citation of answer.citations) {
    const chunk = byId.get(citation.chunk_id);
    if (!chunk) {
      dropped.push({ citation, reason: 'unknown_chunk' });
      continue;
    }
    if (chunk.docId !== citation.doc_id) {
      dropped.push({ citation, reason: 'doc_mismatch' });
      continue;
    }
    let text = normalized.get(chunk.chunkId);
    if (text === undefined) {
      text = normalizeForQuote(chunk.text);
      normalized.set(chunk.chunkId, text);
    }
    const quote = normalizeForQuote(citation.quote);
    if (!quote || !text.includes(quote)) {
      dropped.push({ citation, reason: 'quote_not_found' });
      continue;
    }
    kept.push(citation);
  }
  return { answer: { ...answer, citations: kept }, dropped };
}

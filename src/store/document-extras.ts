/**
 * What ingestion derives from a document version besides its chunks: a summary per chapter and notable sentences
 * (quotes). Both are written with the version they came from and go with it, and both are searchable through the
 * principal filter like chunks.
 */

/** How a chapter summary was made: `extractive` (sentences of the chapter, no model) or by a chat model. */
export type SummaryMethod = 'extractive' | `llm:${string}`;

export interface ChapterSummaryWrite {
  chapterOrdinal: number;
  /** The chapter's title ('' for text before the first heading). */
  title: string;
  text: string;
  method: SummaryMethod;
  /** The chunks the chapter consists of: what a summary hit leads back to as citable evidence. */
  chunkIds: string[];
  /** Analysed keyword text (terms separated by spaces), as for chunks. */
  keywordText: string;
}

export interface QuoteWrite {
  /** The chunk whose text contains the quote verbatim. */
  chunkId: string;
  text: string;
  keywordText: string;
}

/** A document version's extras, written with it (or, for a version stored before extras existed, afterwards). */
export interface DocumentExtras {
  summaries: ChapterSummaryWrite[];
  quotes: QuoteWrite[];
}

export interface SummaryHit {
  /** `<doc_id>#summary-<chapter ordinal>`. */
  id: string;
  docId: string;
  source: string;
  /** The document's title. */
  docTitle: string;
  chapterOrdinal: number;
  title: string;
  text: string;
  method: SummaryMethod;
  chunkIds: string[];
  rank: number;
  /** BM25, higher is better. */
  score: number;
}

export interface QuoteHit {
  /** `<doc_id>#quote-<ordinal>`. */
  id: string;
  docId: string;
  source: string;
  docTitle: string;
  chunkId: string;
  text: string;
  rank: number;
  score: number;
}

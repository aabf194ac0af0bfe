/**
 * What the offline reader asks of a language. One module per language implements it (`en.ts`, `zh.ts`); the reader
 * in agent/offline-qa and the answerability features are written once against this port, and word terms always
 * come from the keyword analyzer (`analyzer.ts`), so a question, a passage and the index read text the same way.
 */

/** The kind of value a question asks for; `any` when the question does not say. */
export type AnswerType =
  | 'number'
  | 'amount'
  | 'date'
  | 'duration'
  | 'person'
  | 'organization'
  | 'place'
  | 'list'
  | 'yes_no'
  | 'definition'
  | 'any';

export type LanguageCode = 'en' | 'zh';

/** What a question is about and what it asks for. */
export interface QuestionFocus {
  language: LanguageCode;
  answer_type: AnswerType;
  /** Named things the answer must be about (people, organisations, places, titles, identifiers), as written. */
  entities: string[];
  /** Analyzer terms of the question's content words (question words and particles removed). */
  key_terms: string[];
}

/** A stretch of a sentence that could answer a question of `type` (offsets in UTF-16 code units). */
export interface AnswerSpan {
  text: string;
  start: number;
  end: number;
  type: AnswerType;
}

export interface LanguageModule {
  code: LanguageCode;
  /** The sentences of a passage, in order, trimmed. */
  sentences(text: string): string[];
  focus(question: string): QuestionFocus;
  /** Named things in a text (people, organisations, places, titles), as written. */
  entities(text: string): string[];
  /** Candidate answer spans of `type` in a sentence, best first; for `any`, none. */
  spans(sentence: string, type: AnswerType): AnswerSpan[];
  /**
   * Paraphrases of a question's key terms, where the language has a thesaurus: for a key term, the analyzer terms
   * of each synonym (all of a multi-word synonym's terms must occur for it to match). A synonym is weaker evidence
   * than the word itself. Optional: a module without one matches key terms exactly.
   */
  expansions?(question: string): Map<string, string[][]>;
}

import type { AnswerType } from '../../../text/language.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import type { QuestionView } from './question-view.ts';

/** Nouns of a measured quantity: "what batch size", "what accuracy", "what percentage" ask for a number. */
const MEASURES = new Set(
  analyzeQuery(
    'size length rate score accuracy percentage percent proportion ratio number count total amount height width depth weight dimension f1 bleu perplexity',
  ),
);

/**
 * The kind of value the question asks for, where the language module says `any` or `definition` but the asked
 * attribute is a measured quantity ("What is the hidden size of …", "What MultiNLI accuracy …"): a number.
 */
export function measuredType(view: QuestionView): AnswerType {
  if (view.type !== 'any' && view.type !== 'definition') return view.type;
  if (view.module.code !== 'en') return view.type;
  const lead = /^\s*(?:what|which)\b/i.test(view.question);
  return lead && view.attribute.some((term) => MEASURES.has(term)) ? 'number' : view.type;
}

import type { AnswerType } from '../../../text/language.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import type { QuestionView } from './question-view.ts';

/** Nouns of a measured quantity: "what batch size", "what accuracy", "what percentage" ask for a number. */
const MEASURES = new Set(
  analyzeQuery(
    'size length rate score accuracy percentage percent proportion ratio number count total amount height width depth weight dimension f1 bleu perplexity time latency',
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

/** A question about a price, fee or sum of money: a share (百分之十, 10%) does not answer it. */
export const asksMoney = (view: QuestionView): boolean =>
  view.module.code === 'zh'
    ? /价|费|金额|多少钱|工资|收入|收益|营收|利润|销售额|票房|成本|预算|投资|赔偿/u.test(view.question)
    : /\b(?:price|cost|fee|fees|salary|budget|pay|paid|spend|spent)\b/iu.test(view.question) &&
      !/\b(?:percent|percentage|share|proportion|fraction|how much of|what part of)\b/iu.test(view.question);

/** "What share of the budget has been spent?", "百分之几": a percentage answers it, a sum or a count does not. */
export const asksShare = (view: QuestionView): boolean =>
  view.module.code === 'zh'
    ? /百分之几|百分比|比例|占比/u.test(view.question)
    : /^\s*(?:what|which)\s+(?:share|percentage|percent|proportion|fraction)\b|\bwhat (?:share|percentage|proportion|fraction) of\b/iu.test(
        view.question,
      );

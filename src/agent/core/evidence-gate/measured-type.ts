import type { AnswerType } from '../../../text/language.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import type { QuestionView } from './question-view.ts';

/** Nouns of a measured quantity: "what batch size", "what accuracy", "what percentage" ask for a number. */
const MEASURES = new Set(
  analyzeQuery(
    'size length rate score accuracy percentage percent proportion ratio number count total amount height width depth weight dimension f1 bleu perplexity time latency',
  ),
);

/** "What is the hidden size of …", "which was the only episode to …": the noun phrase a copula question asks for. */
const COPULA_ASKED =
  /^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?(.+?)(?=\s+(?:of|in|for|on|to|that|which|who|does|do|did|when|with|by|from|at)\b|\s*[?.](?:\s|$)|$)/iu;
/** "What batch size was used …", "what period had …": the noun phrase right after the question word. */
const NOUN_ASKED =
  /^\s*(?:what|which)\s+(.+?)(?=\s+(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|of|in|for|on|to)\b|\s*[?.](?:\s|$)|$)/iu;

/** The words of what a "what …"/"which …" question asks for (its asked noun phrase), or none for another question. */
function askedPhrase(question: string): { terms: string[]; copula: boolean } {
  const copula = COPULA_ASKED.exec(question)?.[1];
  const phrase = copula ?? NOUN_ASKED.exec(question)?.[1];
  return { terms: phrase ? analyzeQuery(phrase) : [], copula: copula !== undefined };
}

/** "the largest number of deaths": a count named inside the question, not what it asks for. */
const COUNT_INSIDE = /\b(?:number|amount|count) of\b/iu;

/**
 * The kind of value the question asks for, where the language module says `any` or `definition` but the asked noun
 * phrase is a measured quantity ("What is the hidden size of …", "What MultiNLI accuracy …"): a number. A count named
 * later in the question does not make it one: "what period had the largest number of deaths" asks for a period.
 */
export function measuredType(view: QuestionView): AnswerType {
  if (view.module.code !== 'en') return view.type;
  const asked = askedPhrase(view.question);
  const measured = asked.terms.some((term) => MEASURES.has(term));
  if (
    view.type === 'number' &&
    !asked.copula &&
    asked.terms.length > 0 &&
    !measured &&
    COUNT_INSIDE.test(view.question)
  )
    return 'any';
  if (view.type !== 'any' && view.type !== 'definition') return view.type;
  return measured ? 'number' : view.type;
}

/** A question about a price, fee or sum of money: a share (百分之十, 10%) does not answer it. */
export const asksMoney = (view: QuestionView): boolean =>
  view.module.code === 'zh'
    ? /价|费|金额|多少钱|工资|收入|收益|营收|利润|销售额|票房|成本|预算|投资|赔偿/u.test(view.question)
    : /\b(?:price|prices|pricing|cost|costs|fee|fees|salary|budget|pay|paid|spend|spent)\b/iu.test(view.question) &&
      !/\b(?:percent|percentage|share|proportion|fraction|how much of|what part of|by how much)\b/iu.test(
        view.question,
      );

/**
 * "What share of the budget has been spent?", "How much of the monthly fees is credited?", "百分之几": a part of a
 * whole, which a percentage answers and a sum or a count does not.
 */
export const asksShare = (view: QuestionView): boolean =>
  view.module.code === 'zh'
    ? /百分之几|百分比|比例|占比/u.test(view.question)
    : /^\s*(?:what|which)\s+(?:share|percentage|percent|proportion|fraction)\b|\bwhat (?:share|percentage|proportion|fraction) of\b|\bhow much of (?:the|its|their|our|this|that)\b/iu.test(
        view.question,
      );

/**
 * "When is a lost parcel reported?" is answered by a time ("after 10 days") as well as by a date; "When did the term
 * start?" asks for a point in time, which a length of time ("24 months") is not.
 */
export const asksTimeSpan = (view: QuestionView): boolean =>
  view.module.code !== 'en'
    ? // "发布时间", "举办日期" ask when an event happened; "多久后", "什么时候到期" may be answered by a time.
      !/(?:时间|日期|哪天|哪年|哪一天|几月几日)\s*[?？]?$/u.test(view.question)
    : !/\bwhen\b.*\b(?:start|starts|started|begin|begins|began|open|opens|opened|launch|launched|end|ends|ended|finish|finished|close|closes|closed|expire|expires|expired|sign|signed|found|founded|born|die|died)\b/iu.test(
        view.question,
      );

/**
 * A length of time that places a point in time, as "when" asks: "after 10 days", "within 24 hours", "2 days before the
 * end of the term". One that measures something ("their endpoint took 35 seconds") answers no "when".
 */
export const placesTime = (view: QuestionView, text: string, span: { start: number; end: number; text: string }) =>
  view.module.code !== 'en' ||
  /^(?:within|after|up to)\b/iu.test(span.text) ||
  /\b(?:in|before|by|every|each|once|no later than|no more than|at most)\s+$/iu.test(text.slice(0, span.start)) ||
  /^\s*(?:before|after|later|earlier|ago|prior|from|of)\b/iu.test(text.slice(span.end));

/** "How often must secrets be rotated?": a frequency, not any length of time. */
export const asksFrequency = (view: QuestionView): boolean =>
  view.module.code === 'en' && /\bhow (?:often|frequently)\b/iu.test(view.question);

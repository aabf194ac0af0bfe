import { refersBackEn, resolveReferenceEn, withoutConnectiveEn } from './en/references.ts';
import { languageOf } from './languages.ts';
import { refersBackZh, resolveReferenceZh, withoutConnectiveZh } from './zh/references.ts';

/**
 * Follow-ups that refer back ("its fee?", "它的单价是多少？"), for the offline rewrite: whether a question does, and the
 * question with the reference replaced by what it refers to, in the question's own language.
 */
export const refersBack = (question: string): boolean =>
  languageOf(question) === 'zh' ? refersBackZh(question) : refersBackEn(question);

export const resolveReference = (question: string, subject: string): string =>
  languageOf(question) === 'zh' ? resolveReferenceZh(question, subject) : resolveReferenceEn(question, subject);

/** The question without a leading "and / so / 那么…", for follow-ups whose referent is not known. */
export const withoutConnective = (question: string): string =>
  languageOf(question) === 'zh' ? withoutConnectiveZh(question) : withoutConnectiveEn(question);

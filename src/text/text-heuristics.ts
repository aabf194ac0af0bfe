/**
 * The older text helpers, kept for their callers outside the reader (ingest extras, follow-up queries, the
 * controllable plan): sentences and identifiers now live in their own modules, answer types and spans in the
 * language modules (en.ts, zh.ts) behind language.ts. New code should use those.
 */
import { IDENTIFIER, identifiersIn } from './identifiers.ts';
import { headedSentences } from './sentences.ts';
import { stem } from './stem.ts';

export { IDENTIFIER, identifiersIn };

/** Words that carry no information need of their own (question words, auxiliaries, articles). */
const STOPWORDS = new Set(
  (
    'a an the of in on at to for by per with from and or but is are was were be been being do does did what which who whom ' +
    'whose when where why how much many can could should would will shall may might must tell me please give show list ' +
    'describe explain about it its this that these those there their they them our we you your i my any all some also and so ' +
    'as if than then into under over up out does has have had s'
  ).split(' '),
);

const ASCII = /^[\x00-\x7f]*$/;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Content terms of a text: lowercased, stopwords removed, Porter-stemmed; identifiers kept whole; CJK runs (no
 * spaces between words) as overlapping character bigrams, as the keyword analyzer indexes them.
 */
export function contentTerms(text: string): string[] {
  const identifiers = identifiersIn(text).map((id) => id.toLowerCase());
  const rest = text.replace(IDENTIFIER, ' ').toLowerCase();
  // ASCII text has no CJK runs: the two scans for them are skipped (summaries run this on every sentence).
  const ascii = ASCII.test(rest);
  const bigrams = ascii
    ? []
    : (rest.match(CJK_RUN) ?? []).flatMap((run) =>
        run.length === 1 ? [run] : Array.from({ length: run.length - 1 }, (_, i) => run.slice(i, i + 2)),
      );
  const words = ((ascii ? rest : rest.replace(CJK_RUN, ' ')).match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => !STOPWORDS.has(word) && word.length > 1,
  );
  return [...new Set([...identifiers, ...words.map(stem), ...bigrams])];
}

/** The stemmed term set of a passage, for coverage tests. */
export const termSet = (text: string): Set<string> => new Set(contentTerms(text));

/** Sentences of a passage, each with the markdown heading it sits under. */
export const sentences = headedSentences;

/** Text matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

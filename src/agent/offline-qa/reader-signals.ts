import type { AnswerSpan } from '../../text/language.ts';

/**
 * Cues a reader uses to tell a sentence that states an answer from one that only talks about the question's topic:
 * a question asked back, the question's own words echoed (a title, a search-page line), a date that only says when
 * the page was written, and a value other passages state too.
 */

/** A sentence that asks (ends in a question mark, or a Chinese question particle) states no answer. */
export function isInterrogative(sentence: string): boolean {
  const end = sentence.trim().replace(/[\s"'”’」』）)\].…]+$/u, '');
  return /[?？]$/u.test(end) || /(?:吗|呢|么)$/u.test(end) || /^(?:问|Q)\s*[：:]/u.test(sentence.trim());
}

/**
 * Share of a sentence's terms that the question does not already contain. A sentence made of the question's words
 * and little else (a headline, "卡塔尔世界杯决赛队伍.") repeats the question instead of answering it.
 */
export function novelty(sentenceTerms: ReadonlySet<string>, questionTerms: ReadonlySet<string>): number {
  const terms = [...sentenceTerms].filter((term) => term.length > 0);
  if (terms.length === 0) return 0;
  return terms.filter((term) => !questionTerms.has(term)).length / terms.length;
}

/**
 * A date that dates the page, not the event: a news dateline (新华社北京4月3日电, 3月15日消息, 9月29日讯, …日报道) or a
 * page's own timestamp (发布时间2023-02-17, Posted on 3 May). It answers "when was this reported", never the question.
 */
const DATELINE_AFTER = /^\s*(?:\d{1,2}[时点:：]\d{0,2}分?\s*)?(?:电|讯|消息|报道|援引|发布[:：]|\s*[|｜])/u;
const DATELINE_BEFORE =
  /(?:发布时间|更新时间|发表时间|发布日期|发表于|更新于|来源[:：].{0,12}|编辑[:：].{0,8}|posted(?: on)?|updated(?: on)?|published(?: on)?)\s*[:：]?\s*$/iu;

export function isDateline(sentence: string, span: AnswerSpan): boolean {
  if (span.type !== 'date' && span.type !== 'duration') return false;
  const after = sentence.slice(span.end, span.end + 12);
  const before = sentence.slice(Math.max(0, span.start - 16), span.start);
  return (
    DATELINE_AFTER.test(after) ||
    DATELINE_BEFORE.test(before) ||
    (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/u.test(span.text) && /\d{1,2}:\d{2}/u.test(after.slice(0, 9)))
  );
}

const valueKey = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s,，]/gu, '');

/** Two spans state the same value when one's text holds the other's (2022年11月30日 and 11月30日). */
export function sameValue(a: string, b: string): boolean {
  const x = valueKey(a);
  const y = valueKey(b);
  if (x.length < 2 || y.length < 2) return x === y;
  return x === y || (Math.min(x.length, y.length) >= 3 && (x.includes(y) || y.includes(x)));
}

const YEAR = /(?<!\d)(?:1[5-9]|20)\d{2}(?!\d)/gu;

/** The years a text names (2022, 2022年, in 1998). */
export const yearsIn = (text: string): Set<string> => new Set(text.normalize('NFKC').match(YEAR) ?? []);

/**
 * A text about another year than the question's: it names years, none of them one the question names. "预计2023年全年CPI
 * 上涨2.1%" does not answer a question about 2022, however many of its other words it shares.
 */
export function otherYear(text: string, asked: ReadonlySet<string>): boolean {
  if (asked.size === 0) return false;
  const years = yearsIn(text);
  return years.size > 0 && ![...years].some((year) => asked.has(year));
}

/** A value that is a year alone ("2018", "2018年") and not one the question names. */
export function bareOtherYear(value: string, asked: ReadonlySet<string>): boolean {
  const year = /^((?:1[5-9]|20)\d{2})年?$/u.exec(value.trim())?.[1];
  return year !== undefined && !asked.has(year);
}

/**
 * Value spans in Chinese text (dates, amounts, numbers, durations), found with patterns over Arabic and Chinese
 * numerals. Each finder returns spans best first: the more specific a value (a full date over a bare year, a sum
 * with its currency over a bare magnitude), the likelier it is the one a question asks for.
 */
import type { AnswerSpan, AnswerType } from '../language.ts';

const ARABIC = String.raw`\d+(?:[,，]\d{3})*(?:\.\d+)?`;
const CN_DIGITS = '零〇一二两三四五六七八九十百千';
const CN = `[${CN_DIGITS}]+`;
const NUM = `(?:${ARABIC}|${CN})`;
const SCALE = '(?:万亿|千亿|百亿|十亿|亿|千万|百万|十万|万|千)';
const APPROX = '(?:多|余|几)';
const CURRENCY =
  '(?:美元|欧元|英镑|日元|港元|港币|澳元|加元|韩元|卢布|兹罗提|法郎|新台币|台币|人民币|美金|令吉|泰铢|卢比|里拉|越南盾|元|块钱)';
const CURRENCY_SIGN = String.raw`(?:US\$|HK\$|[¥￥$€£])`;

const YEAR = `(?:\\d{4}|[〇零一二三四五六七八九]{4})年`;
const MONTH = '(?:1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月';
const DAY = '(?:3[01]|[12]\\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])(?:日|号)';
const PART_OF_MONTH = '(?:上旬|中旬|下旬|初|底|末|中)';
const CLOCK = '(?:\\s*(?:上午|下午|晚上|凌晨|中午|晚|早上)?\\d{1,2}(?:[时点:：]\\d{0,2}分?|时|点))?';
const ONE_DATE = `(?:${YEAR}${MONTH}${DAY}|${MONTH}${DAY}|${YEAR}${MONTH}${PART_OF_MONTH}?|${MONTH}${PART_OF_MONTH}|${YEAR}${PART_OF_MONTH}?)`;
const RANGE_SEP = '\\s*(?:至|到|—|–|-|~|～|－)\\s*';
const NUMERIC_DATE = String.raw`(?<!\d)\d{4}[-/.](?:1[0-2]|0?[1-9])[-/.](?:3[01]|[12]\d|0?[1-9])(?!\d)`;

interface Pattern {
  re: RegExp;
  /** Higher is more specific. */
  rank: number;
}

const DATE_PATTERNS: Pattern[] = [
  {
    re: new RegExp(
      `${ONE_DATE}${CLOCK}${RANGE_SEP}(?:${ONE_DATE}|${DAY}|(?:3[01]|[12]\\d|0?[1-9])(?![\\d年月]))`,
      'gu',
    ),
    rank: 6,
  },
  { re: new RegExp(`${YEAR}${MONTH}${DAY}${CLOCK}`, 'gu'), rank: 5 },
  { re: new RegExp(NUMERIC_DATE, 'gu'), rank: 5 },
  { re: new RegExp(`${MONTH}${DAY}${CLOCK}`, 'gu'), rank: 4 },
  { re: new RegExp(`${YEAR}${MONTH}${PART_OF_MONTH}?|${MONTH}${PART_OF_MONTH}`, 'gu'), rank: 3 },
  { re: new RegExp(`${YEAR}${PART_OF_MONTH}?`, 'gu'), rank: 2 },
  { re: /(?:星期|周|礼拜)[一二三四五六日天]/gu, rank: 1 },
];

const AMOUNT_PATTERNS: Pattern[] = [
  { re: new RegExp(`${CURRENCY_SIGN}\\s?${ARABIC}${SCALE}?${APPROX}?${CURRENCY}?`, 'gu'), rank: 4 },
  { re: new RegExp(`(?:人民币|美金)?${NUM}${APPROX}?${SCALE}?${APPROX}?${CURRENCY}`, 'gu'), rank: 4 },
  // A magnitude with no currency (400亿, 8760万) is still a sum in a question about money; ranked below one with it.
  { re: new RegExp(`${ARABIC}${APPROX}?${SCALE}${APPROX}?(?![\\p{Script=Han}])`, 'gu'), rank: 2 },
  { re: new RegExp(`${ARABIC}${APPROX}?${SCALE}`, 'gu'), rank: 1 },
];

/** Counters and units that make a numeral a count or a measure (time units belong to durations). */
const COUNTER =
  '(?:万人次|亿人次|人次|万人|亿人|万户|万辆|万吨|万亩|个百分点|百分点|个|名|位|人|次|支|家|座|部|届|场|件|种|项|条|所|架|辆|只|头|台|套|张|本|首|篇|款|枚|块|颗|棵|间|层|栋|户|集|期|批|起|例|岁|强|票|席|倍|吨|公斤|千克|克|斤|平方公里|平方米|公里|千米|米|亩|公顷|升|立方米|度|级|分|帧|轮|关|局|球|金|银|铜|枚)';

const NUMBER_PATTERNS: Pattern[] = [
  { re: new RegExp(`(?:${ARABIC}|${CN})\\s?(?:%|％)|百分之${NUM}`, 'gu'), rank: 5 },
  { re: new RegExp(`第${NUM}${COUNTER}?`, 'gu'), rank: 4 },
  { re: new RegExp(`${NUM}${APPROX}?${SCALE}?${APPROX}?${COUNTER}`, 'gu'), rank: 4 },
  { re: new RegExp(`${ARABIC}${APPROX}?${SCALE}`, 'gu'), rank: 3 },
  // A bare number, not a year (1900–2099 stand for years far more often than for counts) and not a part of a code.
  {
    re: new RegExp(`(?<![A-Za-z\\d.])(?!(?:19|20)\\d{2}(?![\\d.]))${ARABIC}(?![\\d.]|\\s?[年月日号]|[A-Za-z])`, 'gu'),
    rank: 2,
  },
];

const DURATION_UNIT = '(?:个?(?:多|半)?(?:月|星期|礼拜)|年|周|天|日|小时|钟头|分钟|秒钟|秒|世纪|季度|学期|工作日)';
const DURATION_PATTERNS: Pattern[] = [
  {
    re: new RegExp(
      `(?<!第)(?:${NUM}|半)${APPROX}?个?半?${DURATION_UNIT}(?:${APPROX}|半|左右)?(?:${NUM}${DURATION_UNIT})?`,
      'gu',
    ),
    rank: 3,
  },
];

/** A 4-digit year or an Arabic month/day is a date, not a duration: 2022年, 10月, 16日 (but 10个月, 3年). */
function isDurationValue(text: string): boolean {
  if (/^(?:\d{4}|[〇零一二三四五六七八九]{4})年/u.test(text)) return false;
  if (/^[\d一二三四五六七八九十]+(?:月|日)$/u.test(text)) return false;
  return true;
}

function find(
  sentence: string,
  patterns: Pattern[],
  type: AnswerType,
  keep: (text: string) => boolean = () => true,
): AnswerSpan[] {
  const found: (AnswerSpan & { rank: number })[] = [];
  for (const { re, rank } of patterns) {
    for (const match of sentence.matchAll(re)) {
      const text = match[0].trim();
      if (!text || !/[\d零〇一二两三四五六七八九十百千半]/u.test(text) || !keep(text)) continue;
      const start = (match.index ?? 0) + match[0].indexOf(text);
      const end = start + text.length;
      // A match inside a more specific one already found is the same value read less well.
      if (found.some((other) => other.start <= start && other.end >= end)) continue;
      found.push({ text, start, end, type, rank });
    }
  }
  return found.sort((a, b) => b.rank - a.rank || a.start - b.start).map(({ rank: _rank, ...span }) => span);
}

export const dateSpans = (sentence: string): AnswerSpan[] => find(sentence, DATE_PATTERNS, 'date');

export const amountSpans = (sentence: string): AnswerSpan[] => find(sentence, AMOUNT_PATTERNS, 'amount');

export function numberSpans(sentence: string): AnswerSpan[] {
  // Dates and durations are not counts: 2022年 and 45天 hold numerals a count question must not take.
  const taken = [...dateSpans(sentence), ...durationSpans(sentence)];
  const cnBare = new RegExp(`^${CN}$`, 'u');
  return find(sentence, NUMBER_PATTERNS, 'number', (text) => !cnBare.test(text) || text.length > 1).filter(
    (span) => !taken.some((other) => other.start < span.end && span.start < other.end),
  );
}

export function durationSpans(sentence: string): AnswerSpan[] {
  const dates = dateSpans(sentence);
  return find(sentence, DURATION_PATTERNS, 'duration', isDurationValue).filter(
    (span) => !dates.some((other) => other.start < span.end && span.start < other.end),
  );
}

import type { QuestionText } from './table-question-to-sql-columns.ts';

/** What a table question asks for, read from its cue words (positions are word indexes). */
export interface Intent {
  /** Last word of "how many" / "number of" / "count". */
  countAt?: number;
  sum: boolean;
  average: boolean;
  extreme?: 'max' | 'min';
  order?: 'next' | 'previous';
  orderAt?: number;
  position?: 'first' | 'last';
  difference: boolean;
  /** The wh-word (or "name", "list") whose following words name the asked column. */
  whAt?: number;
  asksPerson: boolean;
  asksThing: boolean;
  /** "per" / "by" / "for each" before a grouping column. */
  groupAt?: number;
}

const MAX_WORDS = new Set([
  'most',
  'highest',
  'largest',
  'biggest',
  'greatest',
  'maximum',
  'max',
  'longest',
  'tallest',
  'oldest',
  'heaviest',
  'best',
  'farthest',
  'furthest',
  'deepest',
  'widest',
  'richest',
  'busiest',
]);
const MIN_WORDS = new Set([
  'least',
  'lowest',
  'smallest',
  'fewest',
  'minimum',
  'min',
  'shortest',
  'youngest',
  'worst',
  'cheapest',
  'lightest',
  'slowest',
  'narrowest',
  'poorest',
]);
const NEXT_WORDS = new Set(['after', 'next', 'following', 'followed', 'below', 'behind', 'succeeded', 'subsequent']);
const PREVIOUS_WORDS = new Set(['before', 'previous', 'prior', 'preceding', 'preceded', 'above', 'ahead']);
const FIRST_WORDS = new Set(['first', 'top', 'earliest', 'initial', 'opening', '1st']);
const LAST_WORDS = new Set(['last', 'bottom', 'final', 'latest']);
const WH = new Set(['which', 'what', 'who', 'whom', 'whose', 'where', 'when', 'name', 'list']);

const phraseAt = (words: readonly string[], phrase: readonly string[]): number => {
  for (let i = 0; i + phrase.length <= words.length; i++)
    if (phrase.every((word, k) => words[i + k] === word)) return i;
  return -1;
};

export function detectIntent(q: QuestionText): Intent {
  const words = q.words;
  const has = (...phrase: string[]) => phraseAt(words, phrase) !== -1;
  const intent: Intent = { sum: false, average: false, difference: false, asksPerson: false, asksThing: false };

  const howMany = phraseAt(words, ['how', 'many']);
  const numberOf = phraseAt(words, ['number', 'of']);
  const countOf = words.findIndex((word) => word === 'count');
  if (howMany !== -1) intent.countAt = howMany + 1;
  else if (numberOf !== -1) intent.countAt = numberOf + 1;
  else if (countOf !== -1) intent.countAt = countOf + (words[countOf + 1] === 'of' ? 1 : 0);

  intent.sum =
    words.some((word) => ['sum', 'total', 'combined', 'altogether', 'overall'].includes(word)) ||
    has('all', 'together') ||
    has('how', 'much');
  intent.average = words.some((word) => ['average', 'mean', 'avg'].includes(word));
  // "the largest number of deaths", "the most amount of time": an extreme of a value, not a count of rows.
  const extremeBefore = (at: number) =>
    words.slice(Math.max(0, at - 2), at).some((word) => MAX_WORDS.has(word) || MIN_WORDS.has(word));
  if (intent.countAt !== undefined && howMany === -1 && extremeBefore(intent.countAt - 1)) delete intent.countAt;
  intent.difference =
    has('difference') ||
    has('how', 'many', 'more') ||
    has('how', 'much', 'more') ||
    has('how', 'many', 'fewer') ||
    has('how', 'much', 'less');
  if (intent.difference) delete intent.countAt;

  const maxAt = words.findIndex((word) => MAX_WORDS.has(word));
  const minAt = words.findIndex((word) => MIN_WORDS.has(word));
  if (maxAt !== -1 && (minAt === -1 || maxAt < minAt)) intent.extreme = 'max';
  else if (minAt !== -1) intent.extreme = 'min';
  // "more" + "or" picks between two named things ("are there more … in milan or in rome?").
  if (
    !intent.extreme &&
    words.includes('or') &&
    words.some((word) => ['more', 'larger', 'higher', 'greater', 'bigger', 'longer', 'taller'].includes(word))
  )
    intent.extreme = 'max';
  if (
    !intent.extreme &&
    words.includes('or') &&
    words.some((word) => ['less', 'fewer', 'smaller', 'lower', 'shorter'].includes(word))
  )
    intent.extreme = 'min';

  const orderAt = words.findIndex(
    (word, i) =>
      NEXT_WORDS.has(word) || PREVIOUS_WORDS.has(word) || (word === 'comes' && NEXT_WORDS.has(words[i + 1] ?? '')),
  );
  if (orderAt !== -1) {
    const word = words[orderAt] === 'comes' ? (words[orderAt + 1] as string) : (words[orderAt] as string);
    intent.order = NEXT_WORDS.has(word) ? 'next' : 'previous';
    intent.orderAt = orderAt;
  }
  // The earliest position word is the one asked about ("the last year … finished first").
  const positionWord = words.find((word) => FIRST_WORDS.has(word) || LAST_WORDS.has(word));
  if (positionWord) intent.position = FIRST_WORDS.has(positionWord) ? 'first' : 'last';

  const whAt = words.findIndex((word) => WH.has(word));
  if (whAt !== -1) {
    intent.whAt = whAt;
    intent.asksPerson = words[whAt] === 'who' || words[whAt] === 'whom' || words[whAt] === 'whose';
    intent.asksThing = !intent.asksPerson;
  }
  const groupWord = words.findIndex(
    (word, i) => word === 'per' || (word === 'by' && i > 0) || (word === 'each' && words[i - 1] === 'for'),
  );
  if (groupWord !== -1) intent.groupAt = groupWord;
  return intent;
}

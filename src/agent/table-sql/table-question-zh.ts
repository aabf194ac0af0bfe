import { tagged } from '../../text/zh/segmenter.ts';
import { analyzeQuery } from '../../text/analyzer.ts';
import {
  TABLE_COUNTERS_ZH as COUNTERS,
  TABLE_CUES_ZH as CUES,
  TABLE_VOCABULARY_ZH as VOCABULARY,
} from '../../text/zh/table-vocabulary.ts';

/**
 * Chinese table questions for the offline question→SQL strategy, which reads English cue words and matches a table's
 * own names and cells. The question is segmented (jieba) and each Chinese word is read as what the strategy knows:
 * a word the table itself holds stays as written (a Chinese cell or column); a function word of a table question
 * (总额 total, 平均 average, 最高 highest, 每个 per, 多少个 how many, 未 not, 超过 more than …) becomes its English cue;
 * a word of common table vocabulary (订单 order, 地区 region, 已发货 shipped …) becomes the English word only when
 * the table holds that word, so a condition is never dropped silently. Any other Chinese word is left as it is, and
 * the strategy then declines the question rather than plan it without that condition.
 */

const HAN = /\p{Script=Han}/u;

/**
 * The question as the strategy reads it against one table (`known` is the table's title, names and cells as text,
 * `terms` their analyzer terms). Text without Chinese comes back unchanged.
 */
export function readZhTableQuestion(question: string, known: string, terms: ReadonlySet<string>): string {
  if (!HAN.test(question)) return question;
  const tokens = tagged(question).map((token) => token.word);
  const english = (word: string): string | undefined =>
    VOCABULARY.get(word)?.find((candidate) => analyzeQuery(candidate).every((term) => terms.has(term)));
  /** One word as the strategy reads it, or `undefined` when it is none of the table's words, cues or vocabulary. */
  const readWord = (word: string): string | undefined =>
    known.includes(word) ? word : (english(word) ?? CUES.get(word));
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let word = tokens[i] as string;
    if (!HAN.test(word)) {
      out.push(word);
      continue;
    }
    // The segmenter may cut a superlative from its adjective (最/多).
    if (word === '最' && tokens[i + 1] && HAN.test(tokens[i + 1] as string)) word += tokens[++i] as string;
    if (word === '多少' && COUNTERS.has(tokens[i + 1] ?? '')) {
      out.push(' how many ');
      i++;
      continue;
    }
    const read = readWord(word) ?? compoundReading(word, readWord);
    out.push(` ${read ?? word} `);
  }
  return out.join('').replace(/\s+/g, ' ').trim();
}

/** A word the segmenter kept whole (平均价格) read as its parts, longest first, when every part is known. */
function compoundReading(word: string, readWord: (part: string) => string | undefined): string | undefined {
  const parts: string[] = [];
  let at = 0;
  while (at < word.length) {
    let length = word.length - at;
    for (; length > 0; length--) {
      const read = readWord(word.slice(at, at + length));
      if (read !== undefined && !(length === word.length && at === 0)) {
        parts.push(read);
        break;
      }
    }
    if (length === 0) return undefined;
    at += length;
  }
  return parts.join(' ');
}

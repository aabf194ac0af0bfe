/**
 * Named things in Chinese text: people, places, organisations and titles, from jieba's tags plus what the tags
 * miss. jieba knows common names but tags a new one as unknown (`x`, its HMM guess) or splits it (德约/科维奇,
 * 扬科维/奇), and it tags some countries as people; so a candidate is a run of name-like words, and the words
 * around it (主演, 由…执导, …饰, 在…举行, …公司) say which kind of name it is and move it up.
 */
import type { AnswerSpan, AnswerType } from '../language.ts';
import {
  AFTER_PERSON,
  AFTER_PLACE,
  BEFORE_PERSON,
  BEFORE_PLACE,
  GENERIC_PLACES,
  LATIN_NOT_ORG,
  LONG_ORG_SUFFIX,
  NAME_BREAKERS,
  NOT_A_NAME,
  ORG_SUFFIX,
  ORG_WORD,
  PERSON_TAGS,
  PLACE_SUFFIX,
  SURNAMES,
} from './name-cues.ts';
import { dictionaryParts, isHan, tagged, type ZhToken } from './segmenter.ts';

export interface NameCandidate {
  text: string;
  start: number;
  end: number;
  type: 'person' | 'place' | 'organization' | 'title';
  score: number;
}

/** Offsets of 《…》 titles, whose insides are never a person or place. */
function titleRanges(text: string): { start: number; end: number; text: string }[] {
  return [...text.matchAll(/《([^《》]{1,40})》/gu)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
    text: m[1] as string,
  }));
}

const isWordy = (token: ZhToken): boolean => /[\p{L}\p{N}]/u.test(token.word);
const prevWord = (tokens: ZhToken[], i: number): ZhToken | undefined => {
  for (let k = i - 1; k >= 0; k--) if ((tokens[k] as ZhToken).word.trim()) return tokens[k];
  return undefined;
};
const nextWord = (tokens: ZhToken[], i: number): ZhToken | undefined => {
  for (let k = i + 1; k < tokens.length; k++) if ((tokens[k] as ZhToken).word.trim()) return tokens[k];
  return undefined;
};

/** A word that can be (part of) a person's name: tagged a name, or an unknown Han word, or a lone surname. */
function nameish(token: ZhToken): boolean {
  if (!isHan(token.word) || NAME_BREAKERS.has(token.word)) return false;
  if (PERSON_TAGS.has(token.tag)) return true;
  return token.tag === 'x' && token.word.length <= 4;
}

function startsWithCommonWord(word: string): boolean {
  const first = dictionaryParts(word)[0];
  return !!first && first.word.length >= 2 && !PERSON_TAGS.has(first.tag);
}

/** Runs of name-like words: 德约/科维奇 → 德约科维奇, 克里斯/·/希普金斯, 蒋/万安. */
function personRuns(tokens: ZhToken[]): { start: number; end: number; first: number; last: number }[] {
  const runs: { start: number; end: number; first: number; last: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ZhToken;
    const surnameStart = isHan(token.word) && token.word.length <= 3 && SURNAMES.has(token.word[0] as string);
    const nzCued =
      token.tag === 'nz' &&
      isHan(token.word) &&
      token.word.length <= 3 &&
      (BEFORE_PERSON.has(prevWord(tokens, i)?.word ?? '') || tokens[i + 1]?.word.length === 1);
    if (!nameish(token) && !(surnameStart && token.word.length === 1) && !nzCued) continue;
    let j = i;
    let length = token.word.length;
    let transliterated = false;
    while (j + 1 < tokens.length) {
      const next = tokens[j + 1] as ZhToken;
      if (next.word === '·' || next.word === '・') {
        const after = tokens[j + 2];
        if (after && isHan(after.word)) {
          transliterated = true;
          length += 1 + after.word.length;
          j += 2;
          continue;
        }
        break;
      }
      const limit = transliterated ? 16 : 5;
      // A one-character surname jieba split from its given name (周/冬雨): the next short word is the given name.
      if (
        j === i &&
        token.word.length === 1 &&
        isHan(next.word) &&
        next.word.length <= 2 &&
        !NAME_BREAKERS.has(next.word) &&
        /^(?:n|nr|nrt|nz|x|t|ng|g|ag|an|a|j|ns|s|b|z|vn|i)$/u.test(next.tag)
      ) {
        length += next.word.length;
        j++;
        continue;
      }
      const joinable =
        isHan(next.word) &&
        !NAME_BREAKERS.has(next.word) &&
        (nameish(next) ||
          (next.word.length === 1 && /^(?:nr|nz|ag|ng|g|x|n|ns)$/u.test(next.tag)) ||
          (next.tag === 'nz' && next.word.length <= 2));
      if (!joinable || length + next.word.length > limit) break;
      length += next.word.length;
      j++;
    }
    runs.push({ start: token.start, end: (tokens[j] as ZhToken).end, first: i, last: j });
    i = j;
  }
  return runs;
}

/** Text between list separators (、 和 与 及) with a name on one side counts as a name of the same kind. */
const LIST_SEPARATORS = new Set(['、', '和', '与', '及', '以及', '跟', '同']);

export function personCandidates(text: string): NameCandidate[] {
  const tokens = tagged(text);
  const titles = titleRanges(text);
  const out: NameCandidate[] = [];
  for (const run of personRuns(tokens)) {
    if (titles.some((t) => run.start >= t.start && run.end <= t.end)) continue;
    let name = text.slice(run.start, run.end);
    // jieba's HMM glues the role marker to a new name (金晨饰).
    name = name.replace(/(?:饰演|饰|主演|执导)$/u, '');
    if (name.length >= 4 && !name.includes('·')) name = name.replace(/[演在是说称]$/u, '');
    if (name.length < 2 || NOT_A_NAME.test(name)) continue;
    const first = tokens[run.first] as ZhToken;
    const before = prevWord(tokens, run.first);
    const after = nextWord(tokens, run.last);
    const cued =
      (before && BEFORE_PERSON.has(before.word)) ||
      (after && AFTER_PERSON.has(after.word)) ||
      /(?:饰|主演|执导)$/u.test(text.slice(run.start, run.end));
    const placeCued =
      (before && BEFORE_PLACE.has(before.word) && before.word !== '由') || (after && AFTER_PLACE.has(after.word));
    if (placeCued && !cued) continue;
    const tagged = PERSON_TAGS.has(first.tag) && (first.word.length >= 2 || run.last > run.first);
    const surname = SURNAMES.has(name[0] as string) && name.length <= 4;
    const foreign = name.includes('·');
    let score = (tagged ? 1 : 0) + (surname ? 0.6 : 0) + (foreign ? 0.6 : 0) + (cued ? 1.5 : 0);
    // A bare unknown word is kept only with some sign that it is a name: a surname alone is not enough for an
    // unknown word (中华田园犬 starts with one), a surname with the shape of a name (2–3 characters) is.
    if (!tagged && !cued && !foreign && (name.length > 3 || first.tag !== 'x' || run.last !== run.first)) score -= 0.3;
    // An unknown word that starts with a dictionary word (田园 in 田园犬) is a compound, not a name.
    if (!tagged && !cued && !foreign && first.tag === 'x' && startsWithCommonWord(name)) score -= 0.3;
    if (score < 0.6) continue;
    if (name.length > 4 && !foreign && !tagged && !cued) score -= 0.5;
    out.push({ text: name, start: run.start, end: run.start + name.length, type: 'person', score });
  }
  return promoteListMates(text, tokens, out, 'person');
}

/** Members of a 、-list whose other members are names of this kind join as candidates (吴京、刘德华、李雪健). */
function promoteListMates(
  text: string,
  tokens: ZhToken[],
  found: NameCandidate[],
  type: NameCandidate['type'],
): NameCandidate[] {
  if (found.length === 0) return found;
  const out = [...found];
  for (let i = 0; i < tokens.length; i++) {
    const sep = tokens[i] as ZhToken;
    if (!LIST_SEPARATORS.has(sep.word)) continue;
    const left = prevWord(tokens, i);
    const right = nextWord(tokens, i);
    for (const [mate, other] of [
      [left, right],
      [right, left],
    ] as const) {
      if (!mate || !other || !isHan(mate.word) || mate.word.length < 2 || mate.word.length > 4) continue;
      // A known place or organisation in a list of people is still what jieba says it is.
      if (type === 'person' && /^(?:ns|nt)$/u.test(mate.tag)) continue;
      const otherIsName = out.some((c) => c.start <= other.start && c.end >= other.end);
      const mateKnown = out.some((c) => c.start < mate.end && mate.start < c.end);
      if (otherIsName && !mateKnown && isWordy(mate))
        out.push({ text: mate.word, start: mate.start, end: mate.end, type, score: 0.9 });
    }
  }
  void text;
  return out;
}

/** Nouns of events and awards (大会, 峰会, 运动会, 电影节, 比赛, 开幕式, 典礼, 金鸡奖): what is held, never the place. */
const EVENT_NOUN = /(?:会|赛|节|展|礼|式|典|奖)$/u;

export function placeCandidates(text: string): NameCandidate[] {
  const tokens = tagged(text);
  const titles = titleRanges(text);
  const out: NameCandidate[] = [];
  /** Starts of candidates the tagger knows as places, or names (not common nouns) an event word follows (尼斯举行). */
  const placeLike = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ZhToken;
    if (!isHan(token.word) || token.word.length < 2 || GENERIC_PLACES.has(token.word)) continue;
    if (titles.some((t) => token.start >= t.start && token.end <= t.end)) continue;
    const before = prevWord(tokens, i);
    const after = nextWord(tokens, i);
    const cued = (before && BEFORE_PLACE.has(before.word)) || (after && AFTER_PLACE.has(after.word));
    const known = token.tag === 'ns';
    const unknownPlace =
      (token.tag === 'x' || token.tag === 'nrt' || token.tag === 'nz') && PLACE_SUFFIX.test(token.word);
    const nominal = /^(?:n|nr|nrt|nz|x|ns|nt|j)$/u.test(token.tag);
    if (!known && !unknownPlace && !(cued && nominal)) continue;
    // What is held is an event, not where it is held: "大会举办", "峰会举行".
    if (!known && EVENT_NOUN.test(token.word)) continue;
    let end = token.end;
    // A place written with its kind as a separate word (台北 市).
    const next = tokens[i + 1];
    if (next && /^(?:市|省|县|州|区|镇)$/u.test(next.word)) end = next.end;
    // A cue (在…, …举行) makes a known place surer; it makes an unknown noun a place only weakly (在本季度, 在球场).
    const score = known ? (cued ? 2 : 1) : cued ? 0.9 : 0.4;
    out.push({ text: text.slice(token.start, end), start: token.start, end, type: 'place', score });
    if (known || (token.tag !== 'n' && after && AFTER_PLACE.has(after.word))) placeLike.add(token.start);
  }
  // "在法国尼斯举行", "在福建厦门举行": a place written straight before a known place contains it; where something
  // happens is the inner one, which takes the pair's cue.
  for (const outer of out) {
    // Only a known place or one an event word follows (乌镇峰会's 峰会 is a meeting, not a place in 乌镇).
    const inner = out.find((candidate) => candidate.start === outer.end && placeLike.has(candidate.start));
    if (!inner) continue;
    inner.score = Math.max(inner.score, outer.score);
    outer.score = Math.min(outer.score, 0.4);
  }
  return promoteListMates(text, tokens, out, 'place');
}

export function organizationCandidates(text: string): NameCandidate[] {
  const tokens = tagged(text);
  const out: NameCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ZhToken;
    if (token.tag === 'nt') {
      out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 1.5 });
      continue;
    }
    // A Latin name with a one-character kind (B站) or a name before an organisation word (艺画开天 公司).
    if (token.tag === 'eng' && /^[A-Za-z][A-Za-z0-9]*$/u.test(token.word)) {
      const next = tokens[i + 1];
      if (next && /^(?:站|网|台|社)$/u.test(next.word)) {
        out.push({ text: token.word + next.word, start: token.start, end: next.end, type: 'organization', score: 1.2 });
        i++;
        continue;
      }
      // A Latin name reads as one when it is not a plain word: NBA, TikTok, OpenAI, 3M (not Three, Dec).
      const nameShaped =
        /^[A-Z0-9]{2,}$/u.test(token.word) || /^[A-Z][a-z]+[A-Z]/u.test(token.word) || /\d/u.test(token.word);
      if (nameShaped && !LATIN_NOT_ORG.test(token.word))
        out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 0.4 });
      continue;
    }
    if (!isHan(token.word)) continue;
    const suffixWord = ORG_WORD.test(token.word);
    // A common noun ending in 网 or 队 (互联网, 田径队) is not a name; a proper or unknown one is (泰山队).
    const namedWithSuffix =
      !suffixWord &&
      ORG_SUFFIX.test(token.word) &&
      token.word.length >= 3 &&
      (/^(?:nz|x|nt|nrt|ns|j)$/u.test(token.tag) || (token.tag === 'n' && LONG_ORG_SUFFIX.test(token.word)));
    if (suffixWord || namedWithSuffix) {
      // The name before an organisation word: 山东 泰山队, 艺画 开天 公司, 中国移动通信集团 有限公司.
      let k = i;
      while (k - 1 >= 0 && i - (k - 1) <= 3) {
        const prev = tokens[k - 1] as ZhToken;
        // A common noun can name a company (光明 影业) but not a team (足球 队).
        const tags =
          token.word.length >= 2 && suffixWord && k === i
            ? /^(?:n|nz|x|nt|nr|nrt|ns|eng|j)$/u
            : /^(?:nz|x|nt|nr|nrt|ns|eng|j)$/u;
        if (!(isHan(prev.word) || prev.tag === 'eng') || !tags.test(prev.tag) || NAME_BREAKERS.has(prev.word)) break;
        k--;
      }
      if (k < i || namedWithSuffix) {
        const start = (tokens[k] as ZhToken).start;
        out.push({
          text: text.slice(start, token.end),
          start,
          end: token.end,
          type: 'organization',
          score: k < i ? 1.2 : 1,
        });
      }
      continue;
    }
    if (token.tag === 'nz' && token.word.length >= 2)
      out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 0.3 });
  }
  return out;
}

/** 《…》 titles as written, without the brackets. */
export const titles = (text: string): string[] => titleRanges(text).map((t) => t.text);

export function toSpans(candidates: NameCandidate[], type: AnswerType): AnswerSpan[] {
  const best = new Map<string, NameCandidate>();
  const order: NameCandidate[] = [];
  for (const c of candidates) {
    const known = best.get(c.text);
    // The same name cued anywhere in the sentence is that kind of name everywhere in it.
    if (known) known.score = Math.max(known.score, c.score);
    else {
      const copy = { ...c };
      best.set(c.text, copy);
      order.push(copy);
    }
  }
  return order
    .sort((a, b) => b.score - a.score || a.start - b.start)
    .map((c) => ({ text: c.text, start: c.start, end: c.end, type }));
}

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
  MOTION_TO_PLACE,
  NAME_BREAKERS,
  ORG_ABBREVIATION,
  NOT_A_NAME,
  ORG_SUFFIX,
  ORG_WORD,
  PERSON_TAGS,
  PLACE_KIND,
  PLACE_SUFFIX,
  SURNAMES,
} from './name-cues.ts';
import { type NameCandidate, nextWord, prevWord } from './name-candidate.ts';
import { dictionaryParts, isHan, tagged, type ZhToken } from './segmenter.ts';
import { soundRuns } from './transliteration.ts';

export type { NameCandidate } from './name-candidate.ts';
export { organizationCandidates } from './organizations.ts';

/** Offsets of 《…》 titles, whose insides are never a person or place. */
function titleRanges(text: string): { start: number; end: number; text: string }[] {
  return [...text.matchAll(/《([^《》]{1,40})》/gu)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
    text: m[1] as string,
  }));
}

const isWordy = (token: ZhToken): boolean => /[\p{L}\p{N}]/u.test(token.word);

/** The words around a name that say it is a place: 在X, X举行, 城市X, 运抵X. */
export function placeCue(before: ZhToken | undefined, after: ZhToken | undefined): boolean {
  if (after && AFTER_PLACE.has(after.word)) return true;
  if (fromStart(before, after)) return true;
  if (!before) return false;
  return (
    (BEFORE_PLACE.has(before.word) && before.word !== '由') || MOTION_TO_PLACE.has(before.word) || kindBefore(before)
  );
}
/** The second of two places written as one word (福建厦门, 浙江杭州): each half is a place in the dictionary. */
function innerPlace(word: string): string | undefined {
  for (let k = 2; k <= word.length - 2; k++) {
    const [outer, inner] = [dictionaryParts(word.slice(0, k)), dictionaryParts(word.slice(k))];
    // Not a structure in a place (三峡 大坝, 北京 北站): the dictionary tags those common nouns as places too.
    const structure = /(?:坝|关|站|路|街|桥)$/u.test(word);
    if (outer.length === 1 && inner.length === 1 && outer[0]?.tag === 'ns' && inner[0]?.tag === 'ns' && !structure)
      return word.slice(k);
  }
  return undefined;
}

/** Where a journey or a route begins: 从X开始, 自X出发. */
const fromStart = (before: ZhToken | undefined, after: ZhToken | undefined): boolean =>
  !!before && !!after && /^(?:从|自)$/u.test(before.word) && /^(?:开始|出发|启程|起航|起步|起跑)$/u.test(after.word);

/** A kind of place written straight before a name (城市X, 首都X). */
const kindBefore = (before: ZhToken | undefined): boolean => !!before && PLACE_KIND.test(before.word);

/**
 * A name before a person's role that another name follows (塞尔维亚名将X, 美国总统X) is where the person is from, not
 * the person; a role after a name with none after it (X市长在…) is the name's title.
 */
function modifies(tokens: ZhToken[], after: ZhToken | undefined): boolean {
  if (!after || after.word === '由') return false;
  if (!BEFORE_PERSON.has(after.word) && !/^(?:名将|选手|队员|籍)$/u.test(after.word)) return false;
  const named = nextWord(tokens, tokens.indexOf(after));
  return (
    !!named &&
    isHan(named.word) &&
    (/^(?:nr|nrt|nrfg|x|nz|ns|j)$/u.test(named.tag) || SURNAMES.has(named.word[0] as string))
  );
}

/** The word before a name, read through a colon (主演：X): a cue introduces the name with one. */
function cueBefore(tokens: ZhToken[], at: number): ZhToken | undefined {
  const before = prevWord(tokens, at);
  return before && /^[：:]$/u.test(before.word) ? prevWord(tokens, tokens.indexOf(before)) : before;
}

/** Roles a person is introduced by, and nationality words before one (日本名将X, 选手X). */
const introducesPerson = (word: string | undefined): boolean =>
  !!word && (BEFORE_PERSON.has(word) || /^(?:名将|选手|球员|队员|新星|小将|老将)$/u.test(word));

/**
 * A family name jieba takes for a place (Japanese and some Chinese ones: 石川, 田中 are also places) with a given
 * name after it, right after a role that introduces a person (名将石川佳纯): the two are the person's name.
 */
function withPlaceSurnames(text: string, tokens: ZhToken[], found: NameCandidate[]): NameCandidate[] {
  let out = found;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const family = tokens[i] as ZhToken;
    const given = tokens[i + 1] as ZhToken;
    if (family.tag !== 'ns' || family.word.length !== 2 || !isHan(family.word)) continue;
    if (!introducesPerson(prevWord(tokens, i)?.word)) continue;
    if (!isHan(given.word) || given.word.length > 2 || NAME_BREAKERS.has(given.word)) continue;
    if (!/^(?:x|nr|nrt|nrfg|ng|n|nz|ag|g)$/u.test(given.tag)) continue;
    out = out.filter((c) => c.end <= family.start || c.start >= given.end);
    out.push({
      text: text.slice(family.start, given.end),
      start: family.start,
      end: given.end,
      type: 'person',
      score: 2.5,
    });
  }
  return out;
}

/** A word in quotation marks (“铁三角”) is a term or a nickname, not how a person is named. */
const quoted = (text: string, start: number, end: number): boolean =>
  /[“"「『‘]$/u.test(text.slice(0, start)) && /^[”"」』’]/u.test(text.slice(end));

/** A count or an ordinal before a word (第24座, 四大, 6:3): what follows is counted, not a person. */
const counted = (before: ZhToken | undefined): boolean =>
  !!before &&
  (/^(?:m|q|mq)$/u.test(before.tag) || /^[一二两三四五六七八九十百千万几数多]+[大个位名座次届]?$/u.test(before.word));

/**
 * A word of a common noun and a place's suffix (金融城, 科技园区 cut as one name) is a district, not a person:
 * its stem is a dictionary word that is no name.
 */
function commonStemPlace(name: string): boolean {
  if (name.length < 3 || !PLACE_SUFFIX.test(name)) return false;
  const parts = dictionaryParts(name.slice(0, -1));
  return parts.length === 1 && !PERSON_TAGS.has((parts[0] as { tag: string }).tag);
}

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
      if (/^[·・．•]$/u.test(next.word)) {
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
      // A whole name the dictionary knows (surname and given name) takes no unknown word after it (习近平 见泽).
      if (j === i && PERSON_TAGS.has(token.tag) && token.word.length >= 3 && next.tag === 'x') break;
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
    name = name.replace(/(?:饰演|饰|主演|执导|领衔|領銜|特别|特別)$/u, '');
    if (name.length >= 3 && !name.includes('·')) name = name.replace(/[及]$/u, '');
    if (name.length >= 4 && !name.includes('·')) name = name.replace(/[演在是说称]$/u, '');
    if (name.length < 2 || NOT_A_NAME.test(name)) continue;
    const first = tokens[run.first] as ZhToken;
    const before = cueBefore(tokens, run.first);
    const after = nextWord(tokens, run.last);
    const cued =
      (before && BEFORE_PERSON.has(before.word)) ||
      (after && AFTER_PERSON.has(after.word)) ||
      /(?:饰|主演|执导)$/u.test(text.slice(run.start, run.end));
    if (!cued && (placeCue(before, after) || modifies(tokens, after) || quoted(text, run.start, run.end))) continue;
    if (!cued && (counted(before) || commonStemPlace(name))) continue;
    const tagged = PERSON_TAGS.has(first.tag) && (first.word.length >= 2 || run.last > run.first);
    const surname = SURNAMES.has(name[0] as string) && name.length <= 4;
    const foreign = /[·・．•]/u.test(name);
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
  const found = withPlaceSurnames(text, tokens, withSoundRuns(text, tokens, out, titles));
  return promoteListMates(text, tokens, found, 'person');
}

/**
 * Transliterated names (transliteration.ts) as people: a run that holds a shorter candidate replaces it (德约科维奇
 * for 科维奇, 阿尔卡拉斯 for 阿尔卡拉); a new run is a person unless the words around it make it a place or the word
 * after it an organisation's or a place's kind (…大学, …市).
 */
function withSoundRuns(
  text: string,
  tokens: ZhToken[],
  found: NameCandidate[],
  titleSpans: { start: number; end: number }[],
): NameCandidate[] {
  let out = found;
  for (const run of soundRuns(text, tokens)) {
    if (titleSpans.some((t) => run.start >= t.start && run.end <= t.end)) continue;
    // A candidate the run ends inside a guessed word of (萨巴伦卡破 for the run 萨巴伦卡) is the run with the glue.
    const glued = (tokens[run.last] as ZhToken).tag === 'x' ? (tokens[run.last] as ZhToken).end : run.end;
    const inside = out.filter((c) => c.start >= run.start && c.end <= Math.max(run.end, glued));
    // Part of a longer name already found (诺瓦克·德约科维奇).
    if (out.some((c) => c.start <= run.start && c.end >= run.end && !inside.includes(c))) continue;
    const crossing = out.some((c) => c.start < run.end && run.start < c.end && !inside.includes(c));
    if (crossing) continue;
    const before = prevWord(tokens, run.first);
    const after = nextWord(tokens, run.last);
    const cued = (before && BEFORE_PERSON.has(before.word)) || (after && AFTER_PERSON.has(after.word));
    if (!cued && (placeCue(before, after) || counted(before) || modifies(tokens, after))) continue;
    if (after && (ORG_WORD.test(after.word) || /^(?:人|市|省|州|县|区|镇|岛|港|城|语|文|队|军|族)$/u.test(after.word)))
      continue;
    const score = Math.max(1.1, cued ? 2.5 : 0, ...inside.map((c) => c.score));
    out = out.filter((c) => !inside.includes(c));
    out.push({ text: run.text, start: run.start, end: run.end, type: 'person', score });
  }
  return out;
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
      // A known place or organisation in a list of people is still what jieba says it is, and a word the dictionary
      // knows as a common one (商人, 领衔主演) is no name.
      if (type === 'person' && /^(?:ns|nt)$/u.test(mate.tag)) continue;
      if (NOT_A_NAME.test(mate.word)) continue;
      if (type === 'person' && modifies(tokens, nextWord(tokens, tokens.indexOf(mate)))) continue;
      if (type === 'person' && !/^(?:nr|nrt|nrfg|nz|x|ng)$/u.test(mate.tag)) continue;
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
    // A count of places (三国, 两岸) names none of them.
    if (/^[一二两三四五六七八九十百千万几数多]/u.test(token.word)) continue;
    if (titles.some((t) => token.start >= t.start && token.end <= t.end)) continue;
    // A kind of place (港口城市) is no place; an abbreviation ending in an organisation's kind (…足联) is no place.
    if (PLACE_KIND.test(token.word) || (token.word.length >= 3 && ORG_ABBREVIATION.test(token.word))) continue;
    const before = prevWord(tokens, i);
    const after = nextWord(tokens, i);
    // The cue of a pair of places goes to the inner one (从法国马赛开始).
    const outerAt = before?.tag === 'ns' ? tokens.indexOf(before) : -1;
    const cued = placeCue(before, after) || (outerAt >= 0 && placeCue(prevWord(tokens, outerAt), after));
    const known = token.tag === 'ns';
    const unknownPlace =
      (token.tag === 'x' || token.tag === 'nrt' || token.tag === 'nz') && PLACE_SUFFIX.test(token.word);
    const nominal = /^(?:n|nr|nrt|nz|x|ns|nt|j)$/u.test(token.tag);
    if (!known && !unknownPlace && !(cued && nominal)) continue;
    // What is held is an event, not where it is held: "大会举办", "峰会举行".
    // A name (not a common noun: 乌镇 峰会) after a kind of place or after a known place (城市马赛, 法国马赛) is a
    // place whatever it ends in.
    const nameAfterPlace = outerAt >= 0 && token.tag !== 'n';
    if (!known && !kindBefore(before) && !nameAfterPlace && EVENT_NOUN.test(token.word)) continue;
    let end = token.end;
    // A place written with its kind as a separate word (台北 市).
    const next = tokens[i + 1];
    if (next && /^(?:市|省|县|州|区|镇)$/u.test(next.word)) end = next.end;
    // A cue (在…, …举行) makes a known place surer; it makes an unknown noun a place only weakly (在本季度, 在球场).
    // A name after its kind (城市X, 首都X) is said to be a place in so many words, surer than any tag; a place before
    // a kind (南亚国家, 沿海城市) describes another place that is not named there.
    if (after && /^(?:国家|城市|地区|省份|小镇|国度)$/u.test(after.word)) continue;
    const score = kindBefore(before) ? 2 : known ? (cued ? 2 : 1) : cued ? 0.9 : 0.4;
    // One word jieba did not know made of places it knows (福建厦门): the last names the place, the rest contain it.
    const inner = token.word.length >= 4 && /^(?:nz|x|nr|nrt)$/u.test(token.tag) ? innerPlace(token.word) : undefined;
    const from = inner ? token.end - inner.length : token.start;
    if (inner)
      out.push({ text: text.slice(token.start, from), start: token.start, end: from, type: 'place', score: 0.4 });
    out.push({
      text: text.slice(from, end),
      start: from,
      end,
      type: 'place',
      score: inner ? Math.max(score, 1) : score,
    });
    if (kindBefore(before)) demoteContainer(text, out, token.start);
    if (known || (token.tag !== 'n' && cued && !(before && BEFORE_PLACE.has(before.word)))) placeLike.add(token.start);
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

/**
 * "法国东南部港口城市马赛": the place written before a kind-of-place phrase in the same clause contains the named
 * one, which is where it happens; it drops below the known places.
 */
function demoteContainer(text: string, found: NameCandidate[], innerStart: number): void {
  for (const outer of found) {
    if (outer.end > innerStart || innerStart - outer.end > 12) continue;
    if (/[，,。；;：:、（）()\s]/u.test(text.slice(outer.end, innerStart))) continue;
    outer.score = Math.min(outer.score, 0.4);
  }
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

/**
 * Organisations in Chinese text: jieba's `nt`, a name before an organisation's kind (艺画开天 公司, 泰山队), a Latin
 * name of an organisation's shape (NBA, B站), an abbreviation jieba takes for a place (…足联), and a country that
 * competes (X击败Y: its team).
 */
import {
  COMPETES,
  DEMONSTRATIVE,
  LATIN_NOT_ORG,
  LONG_ORG_SUFFIX,
  NAME_BREAKERS,
  ORG_ABBREVIATION,
  ORG_SUFFIX,
  ORG_WORD,
} from './name-cues.ts';
import { type NameCandidate, nextWord, prevWord } from './name-candidate.ts';
import { isHan, tagged, type ZhToken } from './segmenter.ts';

const RANK = /^(?:冠军|亚军|季军|殿军|第[一二三四]名)$/u;

/** After a competitor: a score (2比1, 3:0) or a place won (冠军, 世界杯季军). */
function ranked(tokens: ZhToken[], at: number): boolean {
  const word = tokens[at];
  if (!word) return false;
  if (RANK.test(word.word)) return true;
  const next = nextWord(tokens, at);
  if (word.tag === 'm' && /^\d+$/u.test(word.word)) return !!next && /^(?:比|:|：|-)$/u.test(next.word);
  return word.tag === 'nz' && EVENT_NAME.test(word.word) && !!next && RANK.test(next.word);
}

/** Proper nouns of events and trophies (世界杯, 大战, 锦标赛): what is played for, not who plays. */
const EVENT_NAME = /(?:杯|赛|战|节|会|展|奖|季)$/u;

export function organizationCandidates(text: string): NameCandidate[] {
  const tokens = tagged(text);
  const out: NameCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ZhToken;
    if (token.tag === 'nt') {
      out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 1.5 });
      continue;
    }
    // jieba takes some abbreviations of organisations for places: …足联 (足球联合会), …奥委 (奥林匹克委员会).
    if (token.tag === 'ns' && token.word.length >= 3 && ORG_ABBREVIATION.test(token.word)) {
      out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 1.2 });
      continue;
    }
    // A country that wins, loses or plays is its team: "X击败Y", "X对阵Y", "X夺得季军".
    if (token.tag === 'ns' && isHan(token.word) && token.word.length >= 2) {
      const before = prevWord(tokens, i);
      const after = nextWord(tokens, i);
      const playsAfter =
        after && (COMPETES.has(after.word) || after.word === '以' || ranked(tokens, tokens.indexOf(after)));
      const playedBefore =
        before && /^(?:击败|战胜|打败|淘汰|对阵|负于|不敌|力克|险胜|完胜|逆转|绝杀|战平)$/u.test(before.word);
      if (playsAfter || playedBefore)
        out.push({ text: token.word, start: token.start, end: token.end, type: 'organization', score: 1 });
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
      // 这支球队, 该公司, 各队: a word pointing back at an organisation named elsewhere.
      if (DEMONSTRATIVE.test((tokens[k] as ZhToken).word) || DEMONSTRATIVE.test(token.word)) continue;
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
    // Another proper noun may be an organisation (腾讯) but not an event or a trophy; one character jieba cut off
    // before it belongs to it (新/京报).
    if (token.tag === 'nz' && token.word.length >= 2 && !EVENT_NAME.test(token.word)) {
      const prev = tokens[i - 1];
      const glued =
        prev &&
        isHan(prev.word) &&
        prev.word.length === 1 &&
        /^(?:a|b|j|ns|nr|ng|n)$/u.test(prev.tag) &&
        !NAME_BREAKERS.has(prev.word);
      const start = glued ? prev.start : token.start;
      out.push({ text: text.slice(start, token.end), start, end: token.end, type: 'organization', score: 0.3 });
    }
  }
  return out.filter((candidate) => !newsSource(text, candidate));
}

/**
 * The outlet a report is credited to (新京报讯, 新华社电, 据X报道, 来源：X) is where the text comes from, not what it
 * is about.
 */
function newsSource(text: string, candidate: NameCandidate): boolean {
  const after = text.slice(candidate.end, candidate.end + 3);
  const before = text.slice(Math.max(0, candidate.start - 3), candidate.start);
  return /^\s*(?:讯|电[\s（(]|记者)/u.test(after) || /(?:^|[^依根])据\s*$|来源[：:]\s*$/u.test(before);
}

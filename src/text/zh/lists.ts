/**
 * Lists in Chinese text: several names joined by 、 和 与 及 (阿根廷、克罗地亚、摩洛哥和法国), or names separated
 * by spaces in a credits line (主演: 金晨 王安宇). A list answers 有哪些 questions and questions with plural heads.
 */
import type { AnswerSpan } from '../language.ts';
import { organizationCandidates, personCandidates, placeCandidates, type NameCandidate } from './names.ts';
import { tagged, type ZhToken } from './segmenter.ts';

const JOINERS = new Set(['、', '和', '与', '及', '以及', '跟', '同', '/', '／']);
const NOMINAL = /^(?:n|nr|nrt|nrfg|ns|nt|nz|x|eng|j|vn)$/u;

interface Item {
  start: number;
  end: number;
  named: boolean;
}

/** The list's items: names where a name finder found one, otherwise single nominal words, titles whole. */
function items(sentence: string, tokens: ZhToken[], names: NameCandidate[]): Item[] {
  const out: Item[] = [];
  for (const m of sentence.matchAll(/《[^《》]{1,40}》/gu))
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, named: true });
  for (const name of names)
    if (!out.some((o) => o.start < name.end && name.start < o.end))
      out.push({ start: name.start, end: name.end, named: true });
  for (const token of tokens) {
    if (!NOMINAL.test(token.tag) || token.word.length < 2 || !/[\p{L}\p{N}]/u.test(token.word)) continue;
    if (!out.some((o) => o.start < token.end && token.start < o.end))
      out.push({ start: token.start, end: token.end, named: false });
  }
  return out.sort((a, b) => a.start - b.start);
}

export function listSpans(sentence: string): AnswerSpan[] {
  const tokens = tagged(sentence);
  const names = [...personCandidates(sentence), ...placeCandidates(sentence), ...organizationCandidates(sentence)];
  const all = items(sentence, tokens, names);
  const chains: { start: number; end: number; count: number; named: number }[] = [];
  let chain: Item[] = [];
  let spaced = false;
  const flush = (): void => {
    const named = chain.filter((i) => i.named).length;
    // A space-separated run counts only when every item is a name (a credits line, not prose).
    if (chain.length >= 2 && named >= 1 && (!spaced || named === chain.length)) {
      chains.push({
        start: (chain[0] as Item).start,
        end: (chain[chain.length - 1] as Item).end,
        count: chain.length,
        named,
      });
    }
    chain = [];
    spaced = false;
  };
  for (const item of all) {
    const last = chain[chain.length - 1];
    if (!last) {
      chain = [item];
      continue;
    }
    const between = sentence.slice(last.end, item.start);
    const joiner = between.trim();
    if (between.length <= 3 && (JOINERS.has(joiner) || (joiner === '' && between.length > 0))) {
      if (joiner === '') spaced = true;
      chain.push(item);
    } else {
      flush();
      chain = [item];
    }
  }
  flush();
  return chains
    .sort((a, b) => b.named - a.named || b.count - a.count || a.start - b.start)
    .map((c) => ({ text: sentence.slice(c.start, c.end), start: c.start, end: c.end, type: 'list' as const }));
}

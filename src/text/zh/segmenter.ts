/**
 * The Chinese segmenter: one jieba instance per process, created on first use (loading its dictionary takes about
 * a quarter of a second, so a process that never reads Chinese never pays it), with part-of-speech tags and the
 * offsets of each word. jieba's tags follow the ICTCLAS set: `nr` person, `ns` place, `nt` organisation, `nz` other
 * proper noun, `eng` Latin, `m` numeral, `x` unknown (its HMM's new words, and punctuation).
 */
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { SURNAMES } from './name-cues.ts';

export interface ZhToken {
  word: string;
  tag: string;
  /** Offsets in UTF-16 code units of the segmented text. */
  start: number;
  end: number;
}

let instance: Jieba | undefined;

function segmenter(): Jieba {
  if (!instance) {
    // The addon and its dictionary (`dict.js` reads 11 MB of files when loaded) load here, on first use, too.
    const require = createRequire(import.meta.url);
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js');
    instance = JiebaClass.withDict(dict);
  }
  return instance;
}

/** The reader segments the same sentences for focus, entities and each span type: a bounded cache of the last ones. */
const recent = new Map<string, ZhToken[]>();
const RECENT_LIMIT = 4096;

/** The words of `text` with their tags and offsets (whitespace and punctuation are tokens too, tagged `x`). */
export function tagged(text: string): ZhToken[] {
  const known = recent.get(text);
  if (known) return known;
  const tokens: ZhToken[] = [];
  let cursor = 0;
  for (const { word, tag } of segmenter().tag(text, true)) {
    // jieba returns every character of its input in order; indexOf only guards against a normalisation it might do.
    const at = text.startsWith(word, cursor) ? cursor : text.indexOf(word, cursor);
    if (at < 0) continue;
    const afterNumber = /\d$/u.test(text.slice(0, at));
    for (const piece of repairUnknown(word, tag, afterNumber)) {
      const start = at + piece.offset;
      tokens.push({ word: piece.word, tag: piece.tag, start, end: start + piece.word.length });
    }
    cursor = at + word.length;
  }
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(text, tokens);
  return tokens;
}

/** Function characters jieba's HMM glues onto a new word it has not seen (由艺画, 金晨饰). */
const LEADING_FUNCTION = /^[由被在从向对和与让将把给]/u;
const TRAILING_MARKER = /(?:饰|等|在|是|的|了|演|和|与|及)$/u;
/** A date unit right after digits (2023年国考) belongs to the number, not to the next word. */
const DATE_UNIT = /^[年月日号]/u;

/**
 * An unknown word (`x`) of three or more Han characters loses a glued function character at either edge, and one
 * right after digits loses a leading date unit.
 */
function repairUnknown(
  word: string,
  tag: string,
  afterNumber: boolean,
): { word: string; tag: string; offset: number }[] {
  if (tag !== 'x' || !HAN_ONLY.test(word)) return [{ word, tag, offset: 0 }];
  // Two characters: a function character glued to a surname (由雷): the surname starts a name on its own.
  if (word.length === 2 && LEADING_FUNCTION.test(word) && SURNAMES.has(word[1] as string))
    return [
      { word: word[0] as string, tag: 'p', offset: 0 },
      { word: word[1] as string, tag: 'nr', offset: 1 },
    ];
  if (word.length < 3) return [{ word, tag, offset: 0 }];
  const out: { word: string; tag: string; offset: number }[] = [];
  let body = word;
  let offset = 0;
  if (LEADING_FUNCTION.test(body) || (afterNumber && DATE_UNIT.test(body))) {
    out.push({ word: body[0] as string, tag: LEADING_FUNCTION.test(body) ? 'p' : 'm', offset: 0 });
    body = body.slice(1);
    offset = 1;
  }
  let tail: { word: string; tag: string; offset: number } | undefined;
  if (body.length >= 3 && TRAILING_MARKER.test(body)) {
    tail = { word: body.slice(-1), tag: 'v', offset: offset + body.length - 1 };
    body = body.slice(0, -1);
  }
  out.push({ word: body, tag, offset });
  if (tail) out.push(tail);
  return out;
}

/** The words of `text`, without tags. */
export const words = (text: string): string[] => tagged(text).map((token) => token.word);

const HAN_ONLY = /^\p{Script=Han}+$/u;

export const isHan = (word: string): boolean => HAN_ONLY.test(word);

/** How jieba's dictionary alone (no HMM guessing) splits a word: an unknown word made of known words is a compound. */
export function dictionaryParts(word: string): { word: string; tag: string }[] {
  return segmenter().tag(word, false);
}

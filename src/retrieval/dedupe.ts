import type { ChannelName } from '../domain/index.ts';
import type { FusedCandidate } from './fuse.ts';

export interface DedupeOptions {
  /** Word-shingle Jaccard similarity at or above which two chunks count as the same passage. */
  jaccardThreshold?: number;
  /** Words per shingle. */
  shingleSize?: number;
}

export interface DedupeResult {
  kept: FusedCandidate[];
  /** Dropped chunk id → the kept chunk id that stands for it. */
  collapsed: Map<string, string>;
}

const DEFAULT_THRESHOLD = 0.9;
const DEFAULT_SHINGLE = 3;

/**
 * Merges repeated chunk ids (keeping each channel's best rank and the best fused score) and collapses near-duplicate
 * passages — identical normalised text, or word-shingle Jaccard ≥ threshold (the same paragraph ingested from two
 * files, a chunk overlapping its copy) — keeping the better-ranked one. Input order is the ranking; output keeps it.
 * `textOf` returns undefined for ids without text (kept, never compared).
 */
export function dedupeCandidates(
  candidates: readonly FusedCandidate[],
  textOf: (chunkId: string) => string | undefined,
  options: DedupeOptions = {},
): DedupeResult {
  const threshold = options.jaccardThreshold ?? DEFAULT_THRESHOLD;
  const size = options.shingleSize ?? DEFAULT_SHINGLE;

  const merged = new Map<string, FusedCandidate>();
  for (const candidate of candidates) {
    const seen = merged.get(candidate.chunkId);
    if (!seen) {
      merged.set(candidate.chunkId, { ...candidate, channels: { ...candidate.channels } });
      continue;
    }
    seen.score = Math.max(seen.score, candidate.score);
    for (const [channel, hit] of Object.entries(candidate.channels) as [ChannelName, { rank: number; score: number }][]) {
      const current = seen.channels[channel];
      if (!current || hit.rank < current.rank) seen.channels[channel] = { ...hit };
    }
  }

  const kept: FusedCandidate[] = [];
  const keptText: { normalized: string; shingles: Set<string> }[] = [];
  const collapsed = new Map<string, string>();
  for (const candidate of merged.values()) {
    const text = textOf(candidate.chunkId);
    if (text === undefined) {
      kept.push(candidate);
      keptText.push({ normalized: '', shingles: new Set() });
      continue;
    }
    const normalized = normalizeText(text);
    const shingles = shinglesOf(normalized, size);
    const twin = keptText.findIndex(
      (other) => other.normalized !== '' && (other.normalized === normalized || jaccardAtLeast(other.shingles, shingles, threshold)),
    );
    if (twin >= 0) {
      const keeper = kept[twin] as FusedCandidate;
      collapsed.set(candidate.chunkId, keeper.chunkId);
      // The kept passage inherits channel evidence it lacked, so a trace still shows both channels found it.
      for (const [channel, hit] of Object.entries(candidate.channels) as [ChannelName, { rank: number; score: number }][]) {
        if (!keeper.channels[channel]) keeper.channels[channel] = { ...hit };
      }
      continue;
    }
    kept.push(candidate);
    keptText.push({ normalized, shingles });
  }
  return { kept, collapsed };
}

const normalizeText = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function shinglesOf(normalized: string, size: number): Set<string> {
  const words = normalized ? normalized.split(' ') : [];
  const out = new Set<string>();
  if (words.length < size) {
    if (words.length) out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + size <= words.length; i++) out.add(words.slice(i, i + size).join(' '));
  return out;
}

/**
 * Whether the Jaccard similarity of two shingle sets reaches `threshold`. Sets whose sizes alone rule it out are
 * not compared, and the comparison stops once the shared count can no longer get there: most candidate pairs are
 * unrelated, and a full comparison of every pair cost more than the rest of the search (16 ms for 100 candidates).
 */
function jaccardAtLeast(a: Set<string>, b: Set<string>, threshold: number): boolean {
  if (a.size === 0 || b.size === 0) return false;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size < threshold * large.size) return false;
  // shared / (|a| + |b| − shared) ≥ t  ⇔  shared ≥ t (|a| + |b|) / (1 + t)
  const needed = (threshold * (a.size + b.size)) / (1 + threshold);
  let shared = 0;
  let remaining = small.size;
  for (const item of small) {
    if (large.has(item)) shared++;
    remaining--;
    if (shared >= needed) return true;
    if (shared + remaining < needed) return false;
  }
  return shared >= needed;
}

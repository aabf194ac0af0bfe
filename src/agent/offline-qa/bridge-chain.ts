import { bridgeCandidates, type BridgeCandidate, type BridgePassage } from './bridge-entities.ts';
import { substituteAnswers } from './hop-question.ts';

/** One search of a hop chain: the query it ran and what it returned, best first. */
export interface ChainSearchList<T extends BridgePassage> {
  query: string;
  /** 0-based index of the hop the query asks. */
  hop: number;
  /** The chain state's weight: the product of its bridges' shares (1 for the first hop). */
  weight: number;
  hits: T[];
}

/** One hop as the chain resolved it: its template, the queries it ran, and the bridges read from its evidence. */
export interface HopRecord {
  hop: string;
  queries: string[];
  /** Entities read from this hop's evidence, best first, each with the chunk and sentence that name it. */
  bridges: { text: string; chunk_id: string; sentence: string }[];
}

export interface ChainResult<T extends BridgePassage> {
  hops: HopRecord[];
  lists: ChainSearchList<T>[];
  /** The last hop with the best chain of bridges substituted, then the next best (at most `beam`). */
  resolved: string[];
}

export interface ChainOptions {
  /** Chain states kept after each hop (and so searches per later hop). */
  beam: number;
}

interface Beam {
  answers: string[];
  weight: number;
}

/**
 * Multi-hop retrieval, offline: hop 1 is searched; the bridge entities its evidence names (bridge-entities.ts)
 * become the answers `#1` refers to in hop 2, which is searched once per kept candidate, and so on; at most `beam`
 * chain states survive each hop, so a chain of n hops costs at most 1 + beam·(n−1) searches. An unresolved
 * reference falls back to the earlier hop's own words, which still find what it was about.
 */
export async function retrieveChain<T extends BridgePassage>(
  question: string,
  hops: readonly string[],
  search: (query: string) => Promise<T[]>,
  options: ChainOptions,
): Promise<ChainResult<T>> {
  const lists: ChainSearchList<T>[] = [];
  const records: HopRecord[] = [];
  let beams: Beam[] = [{ answers: [], weight: 1 }];
  for (const [index, hop] of hops.entries()) {
    const last = index === hops.length - 1;
    const record: HopRecord = { hop, queries: [], bridges: [] };
    const next: Beam[] = [];
    const seen = new Set<string>();
    const asked: { beam: Beam; query: string }[] = [];
    for (const beam of beams) {
      const fallback = hops.map((earlier, i) => beam.answers[i] ?? substituteAnswers(earlier, beam.answers));
      const query = substituteAnswers(hop, fallback).replace(/\s+/g, ' ').trim();
      if (seen.has(query.toLowerCase())) continue;
      seen.add(query.toLowerCase());
      asked.push({ beam, query });
    }
    // The beam's searches of one hop do not depend on each other.
    const results = await Promise.all(asked.map(({ query }) => search(query)));
    asked.forEach(({ beam, query }, i) => {
      const hits = results[i] as T[];
      lists.push({ query, hop: index, weight: beam.weight, hits });
      record.queries.push(query);
      if (last) return;
      const candidates = bridgeCandidates(query, question, hits, options.beam);
      const total = candidates.reduce((sum, candidate) => sum + candidate.score, 0);
      for (const candidate of candidates) {
        if (!record.bridges.some((bridge) => bridge.text === candidate.text)) {
          record.bridges.push({ text: candidate.text, chunk_id: candidate.chunk_id, sentence: candidate.sentence });
        }
        next.push({ answers: [...beam.answers, candidate.text], weight: beam.weight * (candidate.score / total) });
      }
      // Nothing named: the hop's own words stand in for its answer.
      if (candidates.length === 0) next.push({ answers: [...beam.answers, query], weight: beam.weight * 0.5 });
    });
    records.push(record);
    if (!last) beams = next.sort((a, b) => b.weight - a.weight).slice(0, Math.max(1, options.beam));
  }
  const lastLists = lists.filter((list) => list.hop === hops.length - 1).sort((a, b) => b.weight - a.weight);
  return { hops: records, lists, resolved: lastLists.slice(0, options.beam).map((list) => list.query) };
}

/** A chain resolved as far as some evidence allows: the next hop to search, with the bridges substituted so far. */
export interface EvidenceResolution {
  /** The first hop whose answer the evidence does not name, earlier answers filled in (the last hop when all are). */
  query: string;
  /** 0-based index of that hop. */
  hop: number;
  bridges: { text: string; chunk_id: string; sentence: string }[];
}

/**
 * The same bridge step over evidence already gathered (react's follow-up search, controllable's next task): hop 1's
 * bridge is read from the evidence; a later hop's bridge only from a sentence that also names the previous bridge,
 * so each step of the chain rests on a sentence linking it to the one before. Where no bridge is found the chain
 * stops, and the hop after the last bridge, with earlier hops' words standing in for unresolved answers, is the query.
 * `fits` may refuse a candidate for a hop (one of the wrong kind: a person where the hop asks a country).
 */
export function resolveFromEvidence(
  question: string,
  hops: readonly string[],
  passages: readonly BridgePassage[],
  fits: (candidate: BridgeCandidate, hop: string) => boolean = () => true,
): EvidenceResolution {
  const answers: string[] = [];
  const bridges: EvidenceResolution['bridges'] = [];
  const textOf = (index: number): string => {
    const filled = hops.map((earlier, i) => answers[i] ?? substituteAnswers(earlier, answers));
    return substituteAnswers(hops[index] as string, filled)
      .replace(/\s+/g, ' ')
      .trim();
  };
  for (let index = 0; index < hops.length - 1; index++) {
    const previous = answers[index - 1];
    const readable = previous ? passages.filter((passage) => passage.text.includes(previous)) : passages;
    const candidates = bridgeCandidates(textOf(index), question, readable, 3).filter((candidate) =>
      fits(candidate, hops[index] as string),
    );
    const best = previous ? candidates.find((candidate) => candidate.sentence.includes(previous)) : candidates[0];
    if (!best) break;
    answers.push(best.text);
    bridges.push({ text: best.text, chunk_id: best.chunk_id, sentence: best.sentence });
  }
  const hop = Math.min(answers.length, hops.length - 1);
  return { query: textOf(hop), hop, bridges };
}

import { isAdmin, type Principal } from '../domain/principal.ts';
import type { SearchResult } from '../domain/search.ts';

/**
 * What a principal may learn about scores. BM25 scores are computed from statistics of the whole index (IDF,
 * average length), restricted documents included: a public document's score for a term moves when a restricted
 * document containing it is added, so a raw score tells a non-admin which words a document they cannot read
 * contains. `explain` (admins): every channel's raw score. `ranks` (everyone else): per-channel ranks only, plus
 * the fused score and the rerank score, which are functions of those ranks and of the visible texts alone.
 */
export type ScoreView = 'explain' | 'ranks';

export const scoreViewFor = (principal: Principal): ScoreView => (isAdmin(principal) ? 'explain' : 'ranks');

type ChannelJson = { rank: number; score?: number };

/** The wire shape of one search result (snake_case), shared by `evident search --json` and `POST /v1/search`. */
export function searchResultJson(result: SearchResult, view: ScoreView) {
  const channels: Partial<Record<keyof SearchResult['channels'], ChannelJson>> = {};
  for (const [name, hit] of Object.entries(result.channels) as [
    keyof SearchResult['channels'],
    { rank: number; score: number },
  ][]) {
    channels[name] = view === 'explain' ? { rank: hit.rank, score: hit.score } : { rank: hit.rank };
  }
  return {
    rank: result.rank,
    chunk_id: result.chunk.id,
    doc_id: result.chunk.docId,
    source: result.source,
    page: result.chunk.page ?? null,
    heading: result.chunk.headingPath.join(' › '),
    score: result.score,
    text: result.chunk.text,
    channels,
    rerank_score: result.rerankScore ?? null,
  };
}

export type SearchResultJson = ReturnType<typeof searchResultJson>;

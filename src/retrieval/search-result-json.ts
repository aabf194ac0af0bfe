import type { SearchResult } from '../domain/index.ts';

/** The wire shape of one search result (snake_case), shared by `evident search --json` and `POST /v1/search`. */
export function searchResultJson(result: SearchResult) {
  return {
    rank: result.rank,
    chunk_id: result.chunk.id,
    doc_id: result.chunk.docId,
    source: result.source,
    page: result.chunk.page ?? null,
    heading: result.chunk.headingPath.join(' › '),
    score: result.score,
    text: result.chunk.text,
    channels: result.channels,
    rerank_score: result.rerankScore ?? null,
  };
}

export type SearchResultJson = ReturnType<typeof searchResultJson>;

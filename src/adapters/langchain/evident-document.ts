import { Document } from '@langchain/core/documents';
import type { SearchResultJson } from '../../retrieval/search-result-json.ts';

/**
 * What an Evident passage carries as LangChain metadata: where it is (doc_id, chunk_id, page, heading path, source)
 * and its scores as its principal may see them (raw channel scores for admins, ranks for everyone else).
 */
export interface EvidentDocumentMetadata {
  doc_id: string;
  chunk_id: string;
  page: number | null;
  /** The heading path, outermost first, joined with ' › '. */
  heading: string;
  source: string;
  rank: number;
  scores: Pick<SearchResultJson, 'score' | 'channels' | 'rerank_score'>;
  [key: string]: unknown;
}

export function evidentDocument(result: SearchResultJson): Document<EvidentDocumentMetadata> {
  return new Document<EvidentDocumentMetadata>({
    id: result.chunk_id,
    pageContent: result.text,
    metadata: {
      doc_id: result.doc_id,
      chunk_id: result.chunk_id,
      page: result.page,
      heading: result.heading,
      source: result.source,
      rank: result.rank,
      scores: { score: result.score, channels: result.channels, rerank_score: result.rerank_score },
    },
  });
}

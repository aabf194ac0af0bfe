import type { ChunkWithSource } from '../../store/store.ts';
import type { Evidence } from '../../domain/evidence.ts';

/** A retrieved chunk as evidence a run may cite: where it is (document, heading, page), its text, and why it was kept. */
export function evidenceFrom(chunk: ChunkWithSource, score: number, queries: readonly string[]): Evidence {
  return {
    chunk_id: chunk.id,
    doc_id: chunk.docId,
    source: chunk.source,
    title: chunk.title,
    heading: chunk.headingPath.join(' › '),
    ...(chunk.page === undefined ? {} : { page: chunk.page }),
    text: chunk.text,
    score: Math.round(score * 1e6) / 1e6,
    queries: [...queries],
  };
}

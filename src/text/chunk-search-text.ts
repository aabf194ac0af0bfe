/**
 * The text that represents a chunk to both channels (keyword and vector) and to the offline reranker: where it sits
 * (document title, heading path) and what it says. Ingestion, reindex, the stored analysed form's backfill and search
 * must build it the same way, so it lives here once.
 */
export const chunkSearchText = (chunk: { title: string; headingPath: readonly string[]; text: string }): string =>
  [chunk.title, ...chunk.headingPath.filter((heading) => !chunk.text.startsWith(heading)), chunk.text]
    .filter(Boolean)
    .join('\n');

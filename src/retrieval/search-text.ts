/**
 * The text that represents a chunk to both channels (keyword and vector): where it sits (document title, heading
 * path) and what it says. Ingestion and reindex must build it the same way, so it lives here once.
 */
export const chunkSearchText = (chunk: { title: string; headingPath: readonly string[]; text: string }): string =>
  [chunk.title, ...chunk.headingPath.filter((heading) => !chunk.text.startsWith(heading)), chunk.text]
    .filter(Boolean)
    .join('\n');

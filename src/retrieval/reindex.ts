import type { Embedder } from '../models/embedder.ts';
import type { DocumentStore } from '../store/ports/document-store.ts';
import type { Store } from '../store/store.ts';
import { embedWithCache } from './embed-with-cache.ts';
import { chunkSearchText } from './search-text.ts';

export interface ReindexProgress {
  chunksDone: number;
  chunksTotal: number;
}

/**
 * Rebuilds every vector with `embedder` and rebinds the store to it in one transaction, so a failure half-way
 * leaves the old vectors and binding in place.
 */
export async function reindex(
  deps: { store: DocumentStore & Pick<Store, 'stats'>; embedder: Embedder },
  onProgress?: (progress: ReindexProgress) => void,
): Promise<{ chunks: number }> {
  const { store, embedder } = deps;
  const chunksTotal = (await store.stats()).chunks;
  const vectors = new Map<string, Float32Array>();
  for await (const batch of store.chunkTexts(Math.max(embedder.batchSize, 64))) {
    const embedded = await embedWithCache(deps, batch.map(chunkSearchText));
    batch.forEach((chunk, i) => vectors.set(chunk.id, embedded[i] as Float32Array));
    onProgress?.({ chunksDone: vectors.size, chunksTotal });
  }
  await store.replaceVectors({ id: embedder.id, dimension: embedder.dimension }, vectors);
  return { chunks: vectors.size };
}

import { createHash } from 'node:crypto';
import { ProviderError } from '../errors/index.ts';
import type { Embedder } from '../models/embedder.ts';
import type { DocumentStore } from '../store/ports/document-store.ts';

/** The store's embedding cache (needed only by embedders with `cacheInStore`). */
export type EmbeddingCache = Pick<DocumentStore, 'cachedEmbeddings' | 'cacheEmbeddings'>;

/** The embedding-cache key of a text: SHA-256 of its UTF-8 bytes, hex. */
export const embeddingContentHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Document vectors for `texts`, in order: cached ones from the store's embedding cache (keyed by embedder id and
 * content hash), the rest embedded in batches of `embedder.batchSize` and written back. Identical texts are
 * embedded once. A vector of the wrong dimension is a ProviderError, never stored. Embedders that are cheaper to
 * run than to cache (`cacheInStore` false) bypass the cache.
 */
export async function embedWithCache(
  deps: { store: EmbeddingCache | undefined; embedder: Embedder },
  texts: readonly string[],
  /** Each text's `analyzeForIndex`, when the caller has it: an embedder that reads it is spared a second analysis. */
  analysed?: readonly string[],
): Promise<Float32Array[]> {
  const { embedder } = deps;
  if (texts.length === 0) return [];
  const store = embedder.cacheInStore ? deps.store : undefined;
  if (embedder.cacheInStore && !store)
    throw new ProviderError(embedder.id, 'keeps its vectors in the store, and no store was given.', {
      category: 'system',
    });
  const hashes = texts.map(embeddingContentHash);
  const vectors = store ? await store.cachedEmbeddings(embedder.id, hashes) : new Map<string, Float32Array>();
  const analysisOf = new Map<string, string>();
  if (analysed && embedder.embedAnalysed) hashes.forEach((hash, i) => analysisOf.set(hash, analysed[i] as string));

  const missing = new Map<string, string>();
  hashes.forEach((hash, i) => {
    if (!vectors.has(hash)) missing.set(hash, texts[i] as string);
  });
  const pending = [...missing];
  const batchSize = Math.max(1, embedder.batchSize);
  for (let start = 0; start < pending.length; start += batchSize) {
    const batch = pending.slice(start, start + batchSize);
    const batchTexts = batch.map(([, text]) => text);
    const embedded =
      analysisOf.size > 0 && embedder.embedAnalysed
        ? await embedder.embedAnalysed(
            batchTexts,
            batch.map(([hash]) => analysisOf.get(hash) as string),
          )
        : await embedder.embed(batchTexts, 'document');
    if (embedded.length !== batch.length) {
      throw new ProviderError(embedder.id, `returned ${embedded.length} vectors for ${batch.length} texts.`, {
        hint: 'The embedding service answered incompletely; retry, or check its logs.',
      });
    }
    const fresh = new Map<string, Float32Array>();
    batch.forEach(([hash], i) => {
      const vector = embedded[i] as Float32Array;
      if (vector.length !== embedder.dimension) {
        throw new ProviderError(
          embedder.id,
          `returned a vector of dimension ${vector.length}, expected ${embedder.dimension}.`,
          {
            hint: 'Check that the configured model is the one the service runs.',
          },
        );
      }
      fresh.set(hash, vector);
      vectors.set(hash, vector);
    });
    if (store) await store.cacheEmbeddings(embedder.id, fresh);
  }
  return hashes.map((hash) => vectors.get(hash) as Float32Array);
}

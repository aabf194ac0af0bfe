import { ValidationError } from '../errors/index.ts';
import { validateExtras } from './sqlite/document-extras.ts';
import type { DocumentWrite, EmbedderInfo, MemoryWrite, TableQueryLimits } from './store.ts';

/** Checks shared by every backend, run before any SQL so a malformed write or query is refused with a precise message. */

export function validateEmbedder(embedder: EmbedderInfo): void {
  if (!embedder.id || !Number.isInteger(embedder.dimension) || embedder.dimension <= 0) {
    throw new ValidationError(`Invalid embedder ${JSON.stringify(embedder)}: it needs an id and a positive dimension.`);
  }
}

export function validateLimits(limits: TableQueryLimits): void {
  if (!(limits.maxRows >= 1) || !(limits.timeoutMs > 0) || !Number.isFinite(limits.timeoutMs)) {
    throw new ValidationError(
      `Invalid table query limits ${JSON.stringify(limits)}: maxRows must be at least 1 and timeoutMs a positive number.`,
    );
  }
}

export function validateWrite(write: DocumentWrite): void {
  const { document, chunks, keywordText, vectors, embedder } = write;
  validateEmbedder(embedder);
  if (!document.docId) throw new ValidationError('A document needs a non-empty doc_id.');
  if (keywordText.length !== chunks.length || vectors.length !== chunks.length) {
    throw new ValidationError(
      `Document ${document.docId}: ${chunks.length} chunks but ${keywordText.length} keyword texts and ${vectors.length} vectors.`,
      { hint: 'keywordText and vectors must be parallel to chunks.' },
    );
  }
  if (write.extras) validateExtras(document.docId, write.extras, new Set(chunks.map((chunk) => chunk.id)));
  chunks.forEach((chunk, i) => {
    if (chunk.docId !== document.docId) {
      throw new ValidationError(`Chunk ${chunk.id} belongs to ${chunk.docId}, not to ${document.docId}.`);
    }
    const length = vectors[i]?.length;
    if (length !== embedder.dimension) {
      throw new ValidationError(
        `Document ${document.docId}: the vector of chunk ${chunk.id} has ${length} dimensions; ${embedder.id} has ${embedder.dimension}.`,
      );
    }
  });
}

/** Every vector of a reindex has the new embedder's dimension. */
export function validateReplacement(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): void {
  validateEmbedder(embedder);
  for (const [id, vector] of vectors) {
    if (vector.length !== embedder.dimension) {
      throw new ValidationError(`The vector for chunk ${id} has ${vector.length} dimensions; ${embedder.id} has ${embedder.dimension}.`);
    }
  }
}

export function validateMemory(memory: MemoryWrite): void {
  if (!memory.user.trim()) throw new ValidationError('A memory needs the user it belongs to.');
  if (!memory.text.trim()) throw new ValidationError('A memory needs non-empty text.');
  if (memory.vector.length === 0) throw new ValidationError('A memory needs a vector.');
}

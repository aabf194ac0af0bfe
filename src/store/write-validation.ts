import { createHash } from 'node:crypto';
import { checkIdentifier } from '../domain/identifier.ts';
import { ValidationError } from '../errors/index.ts';
import type { DocumentExtras } from './document-extras.ts';
import type { DocumentWrite, EmbedderInfo } from './ports/document-store.ts';
import type { MemoryWrite } from './ports/memory-store.ts';

/** Checks shared by every backend, run before any SQL so a malformed write or query is refused with a precise message. */

export function validateEmbedder(embedder: EmbedderInfo): void {
  if (!embedder.id || !Number.isInteger(embedder.dimension) || embedder.dimension <= 0) {
    throw new ValidationError(`Invalid embedder ${JSON.stringify(embedder)}: it needs an id and a positive dimension.`);
  }
}

/** An ACL replacing a stored one: entries are non-empty strings (an empty list is "public", spelled out by the caller). */
export function validateAcl(docId: string, acl: readonly string[]): void {
  if (!Array.isArray(acl) || acl.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
    throw new ValidationError(
      `Invalid ACL for ${docId}: every entry must be a non-empty string such as "group:legal" or "user:bob".`,
    );
  }
}

export function validateWrite(write: DocumentWrite): void {
  const { document, chunks, keywordText, vectors, embedder } = write;
  validateEmbedder(embedder);
  if (!document.docId) throw new ValidationError('A document needs a non-empty doc_id.');
  checkIdentifier('doc_id', document.docId);
  if (keywordText.length !== chunks.length || vectors.length !== chunks.length) {
    throw new ValidationError(
      `Document ${document.docId}: ${chunks.length} chunks but ${keywordText.length} keyword texts and ${vectors.length} vectors.`,
      { hint: 'keywordText and vectors must be parallel to chunks.' },
    );
  }
  if (write.analysed !== undefined && write.analysed.length !== chunks.length) {
    throw new ValidationError(
      `Document ${document.docId}: ${chunks.length} chunks but ${write.analysed.length} analysed forms.`,
      { hint: 'analysed must be parallel to chunks.' },
    );
  }
  if (write.extras) validateExtras(document.docId, write.extras, new Set(chunks.map((chunk) => chunk.id)));
  if (write.original !== undefined) validateOriginal(document, write.original);
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

/** The most bytes an original file kept in the store may have: what both backends hold in one value (PostgreSQL: 1 GB). */
export const MAX_DOCUMENT_FILE_BYTES = 2 ** 30 - 1;

/** A version's original file is that version's: its length and SHA-256 are the document's, and it fits one value. */
function validateOriginal(document: DocumentWrite['document'], original: Uint8Array): void {
  if (!(original instanceof Uint8Array) || original.byteLength > MAX_DOCUMENT_FILE_BYTES) {
    throw new ValidationError(
      `Document ${document.docId}: its original file must be bytes, at most ${MAX_DOCUMENT_FILE_BYTES} of them.`,
      {
        hint: 'Lower ingest.maxFileBytes (EVIDENT_MAX_FILE_BYTES), or ingest such a file from a folder the server reads.',
      },
    );
  }
  const hash = createHash('sha256').update(original).digest('hex');
  if (original.byteLength !== document.bytes || hash !== document.contentHash) {
    throw new ValidationError(
      `Document ${document.docId}: its original file (${original.byteLength} bytes) is not the version being written (${document.bytes} bytes, content hash ${document.contentHash.slice(0, 12)}…).`,
      { hint: 'Keep the exact bytes that were read, parsed and hashed.' },
    );
  }
}

/** A batch of `putDocuments`: each write valid, and no doc_id twice (a batch is a set of versions, not a sequence). */
export function validateWrites(writes: readonly DocumentWrite[]): void {
  const seen = new Set<string>();
  for (const write of writes) {
    validateWrite(write);
    if (seen.has(write.document.docId)) {
      throw new ValidationError(`Document ${write.document.docId} occurs twice in one batch of writes.`, {
        hint: 'Write the versions one after another, or keep only the last.',
      });
    }
    checkChild(write, writes, seen);
    seen.add(write.document.docId);
  }
}

/**
 * A document found inside another one of the batch (an attachment of a message) comes after it, which would remove
 * it as part of its previous version otherwise, and has exactly its ACL: never a wider one.
 */
function checkChild(write: DocumentWrite, writes: readonly DocumentWrite[], before: ReadonlySet<string>): void {
  const { parent, docId, acl } = write.document;
  if (parent === undefined) return;
  const carrier = writes.find((other) => other.document.docId === parent);
  if (!carrier) return;
  if (!before.has(parent))
    throw new ValidationError(`Document ${docId} comes before ${parent}, the document it was found inside.`, {
      hint: 'Write a document before the documents found inside it.',
    });
  const same = (a: readonly string[]) => [...new Set(a)].sort().join('\n');
  if (same(acl) !== same(carrier.document.acl))
    throw new ValidationError(`Document ${docId} has another ACL than ${parent}, the document it was found inside.`);
}

/** Every vector of a reindex has the new embedder's dimension. */
export function validateReplacement(embedder: EmbedderInfo, vectors: ReadonlyMap<string, Float32Array>): void {
  validateEmbedder(embedder);
  for (const [id, vector] of vectors) {
    if (vector.length !== embedder.dimension) {
      throw new ValidationError(
        `The vector for chunk ${id} has ${vector.length} dimensions; ${embedder.id} has ${embedder.dimension}.`,
      );
    }
  }
}

export function validateMemory(memory: MemoryWrite): void {
  if (!memory.user.trim()) throw new ValidationError('A memory needs the user it belongs to.');
  if (!memory.text.trim()) throw new ValidationError('A memory needs non-empty text.');
  if (memory.vector.length === 0) throw new ValidationError('A memory needs a vector.');
}

const SUMMARY_METHOD = /^(extractive|llm:.+)$/;

/** Refuses malformed extras before any SQL runs: every quote must name a chunk of the version it belongs to. */
export function validateExtras(docId: string, extras: DocumentExtras, chunkIds: ReadonlySet<string>): void {
  const methods = new Set(extras.summaries.map((summary) => summary.method));
  if (methods.size > 1)
    throw new ValidationError(
      `Document ${docId}: its summaries were made by several methods (${[...methods].join(', ')}).`,
    );
  for (const summary of extras.summaries) {
    if (!SUMMARY_METHOD.test(summary.method))
      throw new ValidationError(`Document ${docId}: unknown summary method ${JSON.stringify(summary.method)}.`);
    const foreign = summary.chunkIds.find((id) => !chunkIds.has(id));
    if (foreign)
      throw new ValidationError(
        `Document ${docId}: the summary of chapter ${summary.chapterOrdinal} names chunk ${foreign}, which is not one of its chunks.`,
      );
  }
  const stray = extras.quotes.find((quote) => !chunkIds.has(quote.chunkId));
  if (stray)
    throw new ValidationError(
      `Document ${docId}: a quote names chunk ${stray.chunkId}, which is not one of its chunks.`,
    );
}

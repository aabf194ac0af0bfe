/**
 * The URIs of Evident's MCP resources. Doc ids are paths and chunk ids end in `#<n>` (`contracts/a.md#3`), so the id is
 * one percent-encoded segment (`evident://chunks/contracts%2Fa.md%233`): the template's `{chunk_id}` matches it whole,
 * and `#` cannot be read as a fragment.
 */
export const DOCUMENT_URI_TEMPLATE = 'evident://documents/{doc_id}';
export const CHUNK_URI_TEMPLATE = 'evident://chunks/{chunk_id}';

export const documentUri = (docId: string): string => `evident://documents/${encodeURIComponent(docId)}`;
export const chunkUri = (chunkId: string): string => `evident://chunks/${encodeURIComponent(chunkId)}`;

/** The id a template variable holds, decoded; undefined when it is not one well-formed segment. */
export function idFromVariable(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

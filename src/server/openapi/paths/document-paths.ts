import { z } from 'zod';
import { chunkJson } from '../../schemas/chunk-json.ts';
import { documentJson } from '../../schemas/document-json.ts';
import { uploadProgressJson, uploadSummaryJson } from '../../schemas/upload-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { jsonSchemaOf } from '../json-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';
import { DOCUMENT_PAGE_DEFAULT, DOCUMENT_PAGE_MAX } from '../../document-listing.ts';

export const documentListJson = z
  .object({
    documents: z.array(documentJson),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
  })
  .strict();

const uploadForm = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      description:
        "One part per file; the part's filename (one plain name, no path) is the last segment of the doc_id.",
      items: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
    folder: {
      type: 'string',
      description:
        'Relative folder prefixed to every doc_id, e.g. `contracts` → `contracts/x.md`. No `..`, no absolute path.',
    },
    acl: {
      type: 'string',
      description:
        'Comma-separated ACL for every file, as `evident ingest --acl`: `group:legal,user:alice`. Without it a Markdown file keeps its front matter ACL; no ACL means everyone.',
    },
  },
};

const summary = jsonSchemaOf(uploadSummaryJson, 'output');
const eventStream = {
  schema: {
    type: 'string',
    description: `Server-sent events: \`progress\` after each file (data: ${JSON.stringify(jsonSchemaOf(uploadProgressJson, 'output'))}), then \`result\` (data: the JSON summary), then \`end\`. A failure after the stream started is an \`error\` event with the error body, then \`end\`.`,
  },
};

export const documentPaths = pathGroup(
  { name: 'Documents', description: 'The documents the key may see; uploads and deletion are for admins.' },
  {
    '/v1/documents': {
      get: operation({
        id: 'listDocuments',
        summary: 'List the documents the key may see',
        description:
          "Filtered by the key's principal inside the store; each with its ACL, chunk count and update time. Pages of `limit` documents (200 unless asked, at most 1,000) by doc_id; `next_cursor` is the next page's `cursor`.",
        access: 'key',
        params: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: `Documents per page (default ${DOCUMENT_PAGE_DEFAULT}, at most ${DOCUMENT_PAGE_MAX}).`,
            schema: { type: 'integer' },
          },
          {
            name: 'cursor',
            in: 'query',
            required: false,
            description: 'The `next_cursor` of the previous page.',
            schema: { type: 'string' },
          },
          {
            name: 'thread',
            in: 'query',
            required: false,
            description:
              "Only the e-mails of this thread: documents whose `metadata.thread` is it (the id of the message that started the thread, as a message's metadata shows it).",
            schema: { type: 'string' },
          },
        ],
        responses: { 200: { description: 'The documents.', json: documentListJson } },
      }),
      post: operation({
        id: 'uploadDocuments',
        summary: 'Upload and ingest files',
        description:
          'Ingests the files with the same loaders, per-file failures and content-hash no-op as `evident ingest`; they are searchable (under their ACL) when the response arrives. The whole request may carry at most `ingest.maxFileBytes` (50 MiB by default). Send `Accept: text/event-stream` for progress events.',
        access: 'admin',
        body: { description: 'multipart/form-data', content: { 'multipart/form-data': { schema: uploadForm } } },
        responses: {
          201: { description: 'At least one file was ingested (new or changed).', json: uploadSummaryJson },
          200: {
            description:
              'Nothing new to ingest (every file unchanged, or unchanged and failed); with `Accept: text/event-stream`, the event stream.',
            content: { 'application/json': { schema: summary }, 'text/event-stream': eventStream },
          },
          413: { description: 'The request is over the size limit (`payload_too_large`).', json: ERROR_SCHEMA_REF },
          422: {
            description: 'Every file failed; each entry says why (`error.code`, `message`, `hint`).',
            json: uploadSummaryJson,
          },
        },
      }),
    },
    '/v1/documents/{docId}': {
      delete: operation({
        id: 'deleteDocument',
        summary: 'Delete a document',
        description: 'Removes the document with its chunks, vectors, chapters and tables.',
        access: 'admin',
        params: [pathParam('docId', 'The doc_id, a path such as `contracts/ct-2024-0193.md` (slashes allowed).')],
        responses: {
          200: { description: 'Deleted.', json: z.object({ deleted: z.string() }).strict() },
          404: { description: 'No such document.', json: ERROR_SCHEMA_REF },
        },
      }),
    },
    '/v1/documents/{docId}/file': {
      get: operation({
        id: 'getDocumentFile',
        summary: 'The original file of a document',
        description:
          "The bytes of the ingested version, for a key that may read the document (the web UI opens a cited PDF at its page). An upload's original is kept in the store with its version; any other file is served only from the server's document roots (`documentRoots`, `EVIDENT_DOCUMENT_ROOTS`; a file synced with `evident sync` from the root it was synced from) and only while it hashes to the indexed version. PDF is served as `application/pdf`, Markdown, text, CSV and HTML as `text/plain` (never rendered), DOCX, XLSX, PPTX and OpenDocument (ODT, ODS, ODP) as downloads; every response is sandboxed (`Content-Security-Policy: sandbox`), with the content hash as `ETag`.",
        access: 'key',
        params: [pathParam('docId', 'The doc_id, a path such as `reports/q3.pdf` (slashes allowed).')],
        responses: {
          200: {
            description: 'The file.',
            content: {
              'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
              'text/plain': { schema: { type: 'string' } },
              'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
          304: { description: 'Not modified (`If-None-Match` names the content hash).' },
          404: {
            description:
              'No such document, or one the key may not read (the same answer: `not_found`); or a readable one whose file the server does not keep or that changed since it was ingested (`document_file_unavailable`, with a hint).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
    '/v1/chunks/{chunkId}': {
      get: operation({
        id: 'getChunk',
        summary: 'One chunk, as a citation points at it',
        description:
          "A chunk of a document the key may read: its text, heading path, page and `regions`, the table rows it holds with where each row's cells are printed on its page (`cells`: boxes `[x0, y0, x1, y1]` in PDF points, origin at the page's bottom left). The web UI marks a cited row's cells on the PDF page. Audited as a read of the document.",
        access: 'key',
        params: [pathParam('chunkId', 'The chunk_id of a citation, `<doc_id>#<n>` (`#` sent as `%23`).')],
        responses: {
          200: { description: 'The chunk.', json: chunkJson },
          404: {
            description: 'No such chunk, or one of a document the key may not read (`not_found`).',
            json: ERROR_SCHEMA_REF,
          },
        },
      }),
    },
  },
);

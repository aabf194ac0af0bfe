import { z } from 'zod';
import { documentJson } from '../../schemas/document-json.ts';
import { uploadProgressJson, uploadSummaryJson } from '../../schemas/upload-json.ts';
import { ERROR_SCHEMA_REF } from '../error-schema.ts';
import { jsonSchemaOf } from '../json-schema.ts';
import { operation, pathGroup, pathParam } from '../operation.ts';

export const documentListJson = z.object({ documents: z.array(documentJson) }).strict();

const uploadForm = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      description: 'One part per file; the part\'s filename (one plain name, no path) is the last segment of the doc_id.',
      items: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
    folder: { type: 'string', description: 'Relative folder prefixed to every doc_id, e.g. `contracts` → `contracts/x.md`. No `..`, no absolute path.' },
    acl: {
      type: 'string',
      description: 'Comma-separated ACL for every file, as `evident ingest --acl`: `group:legal,user:alice`. Without it a Markdown file keeps its front matter ACL; no ACL means everyone.',
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
        description: 'Filtered by the key\'s principal inside the store; each with its ACL, chunk count and update time.',
        access: 'key',
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
            description: 'Nothing new to ingest (every file unchanged, or unchanged and failed); with `Accept: text/event-stream`, the event stream.',
            content: { 'application/json': { schema: summary }, 'text/event-stream': eventStream },
          },
          413: { description: 'The request is over the size limit (`payload_too_large`).', json: ERROR_SCHEMA_REF },
          422: { description: 'Every file failed; each entry says why (`error.code`, `message`, `hint`).', json: uploadSummaryJson },
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
  },
);

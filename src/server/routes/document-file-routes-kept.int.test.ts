import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.ts';
import { FolderSource } from '../../sources/folder-source.ts';
import { syncSource } from '../../sources/sync-source.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { errorBodyJson } from '../openapi/error-schema.ts';
import { syncDepsOf } from '../../sources/open-sources.ts';

let api: ApiTestServer;
let base: string;
let synced: string;
let elsewhere: string;
const PDF = buildPdf([
  [{ text: 'Board pack, page one.' }],
  [{ text: 'The board approved the harbour budget on page two.' }],
]);
const PDF_V2 = buildPdf([[{ text: 'Board pack, revised.' }], [{ text: 'The board deferred the harbour budget.' }]]);

const file = (docId: string, key: string) => api.request('GET', `/v1/documents/${docId}/file`, { key });
const bytesOf = async (docId: string, key: string) => {
  const response = await fetch(`${api.url}/v1/documents/${docId}/file`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    etag: response.headers.get('etag'),
  };
};
const upload = (name: string, bytes: Uint8Array, acl: string) => {
  const body = new FormData();
  body.append('files', new Blob([new Uint8Array(bytes)]), name);
  body.append('acl', acl);
  return api.request('POST', '/v1/documents', { key: api.keys.admin, body });
};
const sync = (root: string) =>
  syncSource(
    new FolderSource(root, { limits: api.evident.config.ingest, logger: silentLogger }),
    syncDepsOf(api.evident),
  );

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'evident-kept-files-'));
  synced = join(base, 'synced');
  elsewhere = join(base, 'elsewhere');
  await mkdir(join(synced, 'minutes'), { recursive: true });
  await mkdir(elsewhere);
  api = await startApiTestServer({ corpus: false, env: { EVIDENT_DOCUMENT_ROOTS: synced } });
});

afterAll(async () => {
  await api?.close();
  await rm(base, { recursive: true, force: true });
});

describe('GET /v1/documents/{doc_id}/file of an upload (kept in the store)', () => {
  it('serves the uploaded bytes to a reader; 404 as for a missing document to anyone else; replaced on re-upload; gone once deleted', async () => {
    expect((await upload('board.pdf', PDF, 'group:legal')).status).toBe(201);
    const first = await bytesOf('board.pdf', api.keys.alice);
    expect(first.status).toBe(200);
    expect(first.bytes.equals(PDF)).toBe(true);
    expect(first.etag).toBe(`"${(await api.evident.store.getDocument('board.pdf'))?.contentHash}"`);

    const denied = await file('board.pdf', api.keys.bob);
    const missing = await file('board-2.pdf', api.keys.bob);
    expect(denied.status).toBe(404);
    expect(denied.text.replace('board.pdf', 'board-2.pdf')).toBe(missing.text);
    expect(errorBodyJson.parse(denied.json).error.code).toBe('not_found');

    expect((await upload('board.pdf', PDF_V2, 'group:legal')).status).toBe(201);
    const second = await bytesOf('board.pdf', api.keys.alice);
    expect(second.bytes.equals(PDF_V2)).toBe(true);
    expect(second.etag).not.toBe(first.etag);

    expect((await api.request('DELETE', '/v1/documents/board.pdf', { key: api.keys.admin })).status).toBe(200);
    const gone = await file('board.pdf', api.keys.admin);
    expect(gone.status).toBe(404);
    expect(errorBodyJson.parse(gone.json).error.code).toBe('not_found');
  });

  it('follows an ACL change of the upload at the moment of the request', async () => {
    expect((await upload('memo.pdf', PDF, 'group:legal')).status).toBe(201);
    expect((await file('memo.pdf', api.keys.bob)).status).toBe(404);
    const { contentHash } = (await api.evident.store.getDocument('memo.pdf'))!;
    expect(await api.evident.store.updateDocumentAcl('memo.pdf', contentHash, ['user:bob'])).toBe(true);
    expect((await bytesOf('memo.pdf', api.keys.bob)).bytes.equals(PDF)).toBe(true);
    expect((await file('memo.pdf', api.keys.alice)).status).toBe(404);
  });

  it('keeps the file of an upload stored before uploads kept theirs once it is uploaded again, unchanged', async () => {
    const older = join(base, 'older');
    await mkdir(older);
    await writeFile(join(older, 'older.pdf'), PDF);
    // As an upload was ingested before: its label as source, its bytes not kept.
    expect(
      (
        await api.evident.ingestor.ingestFiles(
          [{ path: join(older, 'older.pdf'), docId: 'older.pdf', source: 'upload:older.pdf' }],
          { acl: [] },
        )
      ).added,
    ).toBe(1);
    expect(errorBodyJson.parse((await file('older.pdf', api.keys.bob)).json).error.code).toBe(
      'document_file_unavailable',
    );
    const again = await upload('older.pdf', PDF, 'public');
    expect(again.status).toBe(201);
    expect((await bytesOf('older.pdf', api.keys.bob)).bytes.equals(PDF)).toBe(true);
    // Now kept: a third upload of the same bytes is the usual no-op.
    expect(JSON.stringify((await upload('older.pdf', PDF, 'public')).json)).toContain('"unchanged"');
  });
});

describe("GET /v1/documents/{doc_id}/file of a synced folder's document", () => {
  it('is served when its folder is a document root, and not when it is not', async () => {
    await writeFile(join(synced, 'minutes', 'march.pdf'), PDF);
    await writeFile(join(elsewhere, 'april.pdf'), PDF_V2);
    expect((await sync(synced)).outcomes.map((outcome) => outcome.status)).toEqual(['added']);
    expect((await sync(elsewhere)).outcomes.map((outcome) => outcome.status)).toEqual(['added']);
    expect((await api.evident.store.getDocument('minutes/march.pdf'))?.source).toMatch(
      /^folder:[0-9a-f]{12}\/minutes\/march\.pdf$/,
    );

    const served = await bytesOf('minutes/march.pdf', api.keys.bob);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(PDF)).toBe(true);

    const outside = await file('april.pdf', api.keys.bob);
    expect(outside.status).toBe(404);
    expect(errorBodyJson.parse(outside.json).error.code).toBe('document_file_unavailable');
  });
});

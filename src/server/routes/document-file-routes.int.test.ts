import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { buildPdf, pdfTableLines } from '../../testing/pdf-builder.ts';
import { errorBodyJson } from '../openapi/error-schema.ts';

let api: ApiTestServer;
let root: string;
const PDF = buildPdf([
  [{ text: 'Quarterly report, page one.' }],
  [{ text: 'Revenue grew by 12 percent in the third quarter.' }],
]);
const TABLE_PDF = buildPdf([
  [
    { text: 'Table 1: Fees by contract', x: 72, y: 720 },
    ...pdfTableLines(
      [
        ['Contract', 'Fee', 'Term'],
        ['CT-1', '9000', '12'],
        ['CT-2', '48000', '24'],
        ['CT-3', '1200', '6'],
      ],
      { columns: [72, 220, 320], top: 700 },
    ),
  ],
]);
const PAGE = '<script>alert(1)</script><p>Welcome page, readable by everyone.</p>';

const file = (docId: string, key: string | undefined, headers: Record<string, string> = {}) =>
  api.request('GET', `/v1/documents/${docId}/file`, { ...(key === undefined ? {} : { key }), headers });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-doc-files-'));
  await mkdir(join(root, 'reports'));
  await writeFile(join(root, 'reports', 'q3.pdf'), PDF);
  await writeFile(join(root, 'welcome.html'), PAGE);
  await writeFile(join(root, 'reports', 'fees.pdf'), TABLE_PDF);
  api = await startApiTestServer({ corpus: false, env: { EVIDENT_DOCUMENT_ROOTS: root } });
  expect(
    (
      await api.evident.ingestor.ingestFiles([{ path: join(root, 'reports', 'q3.pdf'), docId: 'reports/q3.pdf' }], {
        acl: ['group:legal'],
      })
    ).failed,
  ).toBe(0);
  expect(
    (await api.evident.ingestor.ingestFiles([{ path: join(root, 'welcome.html'), docId: 'welcome.html' }], { acl: [] }))
      .failed,
  ).toBe(0);
  expect(
    (
      await api.evident.ingestor.ingestFiles([{ path: join(root, 'reports', 'fees.pdf'), docId: 'reports/fees.pdf' }], {
        acl: ['group:legal'],
      })
    ).failed,
  ).toBe(0);
});

afterAll(async () => {
  await api?.close();
  await rm(root, { recursive: true, force: true });
});

describe('GET /v1/documents/{doc_id}/file', () => {
  it('serves a reader the exact indexed bytes as application/pdf, sandboxed, with the content hash as ETag', async () => {
    const response = await fetch(`${api.url}/v1/documents/reports/q3.pdf/file`, {
      headers: { authorization: `Bearer ${api.keys.alice}` },
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
    const hash = (await api.evident.store.getDocument('reports/q3.pdf'))?.contentHash;
    expect(
      Object.fromEntries(
        [
          'content-type',
          'content-length',
          'content-disposition',
          'x-content-type-options',
          'content-security-policy',
          'cache-control',
          'etag',
        ].map((name) => [name, response.headers.get(name)]),
      ),
    ).toEqual({
      'content-type': 'application/pdf',
      'content-length': String(PDF.length),
      'content-disposition': `inline; filename="q3.pdf"; filename*=UTF-8''q3.pdf`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
      'cache-control': 'private, no-cache',
      etag: `"${hash}"`,
    });
    expect((await file('reports/q3.pdf', api.keys.alice, { 'if-none-match': `"${hash}"` })).status).toBe(304);
    expect((await file('reports/q3.pdf', api.keys.admin)).status).toBe(200);
  });

  it('answers a user who may not read the document exactly as for one that does not exist', async () => {
    const denied = await file('reports/q3.pdf', api.keys.bob);
    const missing = await file('reports/q4.pdf', api.keys.bob);
    expect(denied.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(errorBodyJson.parse(denied.json).error).toEqual({
      code: 'not_found',
      message: 'No document named "reports/q3.pdf".',
      hint: null,
    });
    expect(denied.text.replace('q3', 'q4')).toBe(missing.text);
    expect(denied.text).not.toContain('Revenue');
    expect((await file('reports/q3.pdf', undefined)).status).toBe(401);
  });

  it("serves HTML as plain text in a sandbox, never as a page of the UI's origin", async () => {
    const response = await file('welcome.html', api.keys.bob);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.text).toBe(PAGE);
  });

  it('refuses a file that changed since it was ingested, and tells only a reader of it', async () => {
    await writeFile(join(root, 'reports', 'q3.pdf'), buildPdf([[{ text: 'Revenue fell by 40 percent.' }]]));
    try {
      const changed = await file('reports/q3.pdf', api.keys.alice);
      expect(changed.status).toBe(404);
      const { error } = errorBodyJson.parse(changed.json);
      expect(error.code).toBe('document_file_unavailable');
      expect(error.message).toBe(
        'The file of "reports/q3.pdf" changed since it was ingested, so it no longer shows what was cited.',
      );
      expect(error.hint).toContain('evident ingest');
      expect(errorBodyJson.parse((await file('reports/q3.pdf', api.keys.bob)).json).error.code).toBe('not_found');
    } finally {
      await writeFile(join(root, 'reports', 'q3.pdf'), PDF);
    }
    expect((await file('reports/q3.pdf', api.keys.alice)).status).toBe(200);
  });

  it('has no file for a document given as text (a data set), whose source is no file', async () => {
    await api.evident.ingestor.ingestRecords([
      { docId: 'records/memo', title: 'Memo', text: 'A memo given as text.', source: 'dataset:memos', acl: [] },
    ]);
    const response = await file('records/memo', api.keys.alice);
    expect(response.status).toBe(404);
    const { error } = errorBodyJson.parse(response.json);
    expect(error.code).toBe('document_file_unavailable');
    expect(error.message).toBe('The original file of "records/memo" is not kept by this server.');
    expect(error.hint).toContain('EVIDENT_DOCUMENT_ROOTS');
  });
});

describe('GET /v1/chunks/{chunk_id}', () => {
  it('gives a reader a chunk with the printed place of each cell of its table rows; others get not found', async () => {
    const chunks = await api.evident.store.getChunks(['reports/fees.pdf#0', 'reports/fees.pdf#1'], {
      id: 'admin',
      groups: [],
      roles: ['admin'],
    });
    const rowChunk = chunks.find((chunk) => chunk.text.includes('Contract: CT-2'));
    expect(rowChunk).toBeDefined();
    const path = `/v1/chunks/${encodeURIComponent(rowChunk!.id)}`;
    const response = await api.request('GET', path, { key: api.keys.alice });
    expect(response.status).toBe(200);
    const body = response.json as {
      chunk_id: string;
      page: number;
      regions: { page: number; text: string; cells: number[][] }[];
    };
    expect(body.chunk_id).toBe(rowChunk!.id);
    const row = body.regions.find((region) => region.text.startsWith('Contract: CT-2'));
    expect(row).toMatchObject({ page: 1, text: 'Contract: CT-2 | Fee: 48000 | Term: 24' });
    // One box per cell, left to right at the columns' left edges, on the row's baseline band.
    expect(row!.cells.map(([x0]) => Math.round(x0!))).toEqual([72, 220, 320]);
    for (const [x0, y0, x1, y1] of row!.cells) {
      expect(x1! - x0!).toBeGreaterThan(5);
      expect(y1! - y0!).toBeGreaterThan(5);
      expect(y0).toBeLessThan(700);
    }
    const denied = await api.request('GET', path, { key: api.keys.bob });
    const missing = await api.request('GET', `/v1/chunks/${encodeURIComponent('reports/none.pdf#0')}`, {
      key: api.keys.bob,
    });
    expect(denied.status).toBe(404);
    expect(denied.text).toBe(missing.text.replace('reports/none.pdf#0', rowChunk!.id));
  });
});

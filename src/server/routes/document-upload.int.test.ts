import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiResponse, type ApiTestServer } from '../../testing/api-test-server.ts';
import { errorBodyJson } from '../openapi/error-schema.ts';
import { documentListJson } from '../openapi/paths/document-paths.ts';
import { searchResponseJson } from '../openapi/paths/search-paths.ts';
import { UPLOAD_TEMP_PREFIX } from './upload-ingest.ts';
import { uploadProgressJson, uploadSummaryJson } from '../schemas/upload-json.ts';

let api: ApiTestServer;
let ownTmp: string;
let systemTmp: string | undefined;

// Uploads stage under os.tmpdir(); pointing TMPDIR at a folder of this file's own keeps other suites' uploads
// (a concurrent run on the same machine) out of the leftover check.
const uploadTempFolders = async () => (await readdir(ownTmp)).filter((name) => name.startsWith(UPLOAD_TEMP_PREFIX));

/** A contract only group legal may read; its identifier and fee occur nowhere else. */
const LEGAL_CONTRACT =
  '# Supply Agreement CT-2099-0001\n\nContract CT-2099-0001 sets an onboarding fee of $77,310 payable in advance.\n';
const OPEN_POLICY = '# Parking policy\n\nVisitors park in bay P7-Quartz after signing in at reception.\n';

function form(files: [name: string, content: string | Uint8Array][], fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [name, content] of files) body.append('files', new Blob([content]), name);
  for (const [field, value] of Object.entries(fields)) body.append(field, value);
  return body;
}

const upload = (body: FormData, key = api.keys.admin, headers: Record<string, string> = {}) =>
  api.request('POST', '/v1/documents', { key, body, headers });

const errorOf = (response: ApiResponse) => errorBodyJson.parse(response.json).error;

async function searchDocIds(key: string, query: string): Promise<{ ids: string[]; text: string }> {
  const response = await api.request('POST', '/v1/search', { key, json: { query, top_k: 20 } });
  expect(response.status).toBe(200);
  return { ids: searchResponseJson.parse(response.json).results.map((r) => r.doc_id), text: response.text };
}

async function listedDocuments(key: string) {
  const response = await api.request('GET', '/v1/documents', { key });
  expect(response.status).toBe(200);
  return documentListJson.parse(response.json).documents;
}

/** Parses a whole SSE body into its events, with each data line read as JSON. */
function sseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

beforeAll(async () => {
  systemTmp = process.env.TMPDIR;
  ownTmp = await mkdtemp(join(tmpdir(), 'evident-upload-test-'));
  process.env.TMPDIR = ownTmp;
  api = await startApiTestServer();
});

afterAll(async () => {
  await api?.close();
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  await rm(ownTmp, { recursive: true, force: true });
});

describe('POST /v1/documents (upload)', () => {
  it('ingests files under a folder with an ACL: searchable at once, only by whom the ACL allows', async () => {
    const response = await upload(
      form([['ct-2099-0001.md', LEGAL_CONTRACT]], { folder: 'contracts/2099', acl: 'group:legal, user:bob' }),
    );
    expect(response.status, response.text).toBe(201);
    expect(uploadSummaryJson.parse(response.json)).toEqual({
      documents: [{ doc_id: 'contracts/2099/ct-2099-0001.md', status: 'ingested', chunks: 1 }],
      ingested: 1,
      unchanged: 0,
      failed: 0,
    });
    expect((await searchDocIds(api.keys.alice, 'CT-2099-0001 onboarding fee')).ids[0]).toBe(
      'contracts/2099/ct-2099-0001.md',
    );
    // bob is named in the ACL; a stored user outside it (below) is not.
    expect((await searchDocIds(api.keys.bob, 'CT-2099-0001 onboarding fee')).ids).toContain(
      'contracts/2099/ct-2099-0001.md',
    );

    const listed = (await listedDocuments(api.keys.alice)).find((d) => d.doc_id === 'contracts/2099/ct-2099-0001.md');
    expect(listed).toMatchObject({
      title: 'Supply Agreement CT-2099-0001',
      acl: ['group:legal', 'user:bob'],
      chunks: 1,
      source: 'upload:contracts/2099/ct-2099-0001.md',
    });
    expect(Date.parse(listed?.updated_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it("says how many of a PDF's captioned figures were described: none offline, each counted", async () => {
    const pdf = buildPdf([
      [
        { text: 'Pump curves', size: 16, bold: true },
        { text: 'The curve below shows flow against head for each pump model.', gapBefore: 8 },
        { text: 'Figure 1: Flow against head for the Zephyr pumps.', gapBefore: 120 },
      ],
    ]);
    const response = await upload(form([['pump-curves.pdf', new Uint8Array(pdf)]], { folder: 'figures' }));
    expect(response.status, response.text).toBe(201);
    expect(uploadSummaryJson.parse(response.json).documents).toEqual([
      { doc_id: 'figures/pump-curves.pdf', status: 'ingested', chunks: 1, figures: { described: 0, not_described: 1 } },
    ]);
  });

  it('keeps a member outside the ACL from finding or listing an uploaded document', async () => {
    const uploaded = await upload(
      form([['ct-2099-0002.md', LEGAL_CONTRACT.replaceAll('0001', '0002').replace('77,310', '81,999')]], {
        folder: 'contracts',
        acl: 'group:legal',
      }),
    );
    expect(uploaded.status).toBe(201);
    const alice = await searchDocIds(api.keys.alice, 'CT-2099-0002 onboarding fee');
    expect(alice.ids).toContain('contracts/ct-2099-0002.md');
    const bob = await searchDocIds(api.keys.bob, 'CT-2099-0002 onboarding fee');
    expect(bob.ids).not.toContain('contracts/ct-2099-0002.md');
    expect(bob.text).not.toContain('81,999');
    expect(alice.text).toContain('81,999');
    expect((await listedDocuments(api.keys.bob)).map((d) => d.doc_id)).not.toContain('contracts/ct-2099-0002.md');
  });

  it("keeps a Markdown file's own front matter ACL when no acl field is sent", async () => {
    const restricted = `---\ntitle: Board minutes\nacl: [group:legal]\n---\n# Board minutes\n\nThe board approved budget line BL-4471-Zephyr.\n`;
    expect((await upload(form([['minutes.md', restricted]]))).status).toBe(201);
    expect((await searchDocIds(api.keys.alice, 'BL-4471-Zephyr')).ids).toContain('minutes.md');
    expect((await searchDocIds(api.keys.bob, 'BL-4471-Zephyr')).ids).not.toContain('minutes.md');
  });

  it('answers 200 with every file unchanged when the same content and ACL are uploaded again, 201 when the ACL changes', async () => {
    const body = () => form([['parking.md', OPEN_POLICY]], { folder: 'policies' });
    expect((await upload(body())).status).toBe(201);
    const again = await upload(body());
    expect(again.status).toBe(200);
    expect(uploadSummaryJson.parse(again.json)).toEqual({
      documents: [{ doc_id: 'policies/parking.md', status: 'unchanged', chunks: 1 }],
      ingested: 0,
      unchanged: 1,
      failed: 0,
    });
    const narrowed = await upload(form([['parking.md', OPEN_POLICY]], { folder: 'policies', acl: 'group:legal' }));
    expect(narrowed.status).toBe(201);
    expect((await searchDocIds(api.keys.bob, 'P7-Quartz parking')).ids).not.toContain('policies/parking.md');
  });

  it('reports a file that fails to parse with its typed error and stores nothing for it, ingesting the rest', async () => {
    const response = await upload(
      form([
        ['broken.pdf', 'this is not a PDF at all'],
        ['notes.exe', 'MZ binary'],
        ['ok.txt', 'Shipment batch SB-5521 left the warehouse on Monday.'],
      ]),
    );
    expect(response.status).toBe(201);
    const summary = uploadSummaryJson.parse(response.json);
    expect(summary).toMatchObject({ ingested: 1, unchanged: 0, failed: 2 });
    const [pdf, exe, txt] = summary.documents;
    expect(pdf).toMatchObject({ doc_id: 'broken.pdf', status: 'failed', chunks: 0, error: { code: 'pdf_corrupt' } });
    expect(pdf?.error?.message).toContain('broken.pdf');
    expect(exe).toMatchObject({ doc_id: 'notes.exe', status: 'failed', error: { code: 'file_unsupported' } });
    expect(exe?.error?.hint).toMatch(/^Supported: .*\.md/);
    expect(exe?.error?.message).not.toContain('Supported:');
    expect(txt).toMatchObject({ doc_id: 'ok.txt', status: 'ingested' });
    expect(await api.evident.store.getDocument('broken.pdf')).toBeUndefined();
    expect(await api.evident.store.getDocument('notes.exe')).toBeUndefined();
    expect((await searchDocIds(api.keys.bob, 'SB-5521 shipment')).ids).toContain('ok.txt');
  });

  it('answers 422 when every file failed', async () => {
    const response = await upload(
      form([
        ['empty.md', ''],
        ['scan.pdf', '%PDF-1.7 truncated'],
      ]),
    );
    expect(response.status).toBe(422);
    const summary = uploadSummaryJson.parse(response.json);
    expect(summary).toMatchObject({ ingested: 0, failed: 2 });
    expect(summary.documents.map((d) => d.error?.code)).toEqual(['file_empty', 'pdf_corrupt']);
  });

  it('streams progress per file, then the result and the end, with Accept: text/event-stream', async () => {
    const response = await upload(
      form(
        [
          ['alpha.md', '# Alpha\n\nAlpha runbook RB-1001 restarts the ingest worker.\n'],
          ['bad.pdf', 'garbage'],
          ['beta.md', '# Beta\n\nBeta runbook RB-1002 rotates the API keys.\n'],
        ],
        { folder: 'runbooks' },
      ),
      api.keys.admin,
      { accept: 'text/event-stream' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseEvents(response.text);
    expect(events.map((e) => e.event)).toEqual(['progress', 'progress', 'progress', 'result', 'end']);
    const progress = events.slice(0, 3).map((e) => uploadProgressJson.parse(e.data));
    expect(progress.map((p) => [p.files_done, p.files_total, p.last.doc_id, p.last.status])).toEqual([
      [1, 3, 'runbooks/alpha.md', 'ingested'],
      [2, 3, 'runbooks/bad.pdf', 'failed'],
      [3, 3, 'runbooks/beta.md', 'ingested'],
    ]);
    expect(progress.map((p) => p.chunks)).toEqual([1, 1, 2]);
    const result = uploadSummaryJson.parse(events[3]?.data);
    expect(result).toMatchObject({ ingested: 2, failed: 1, unchanged: 0 });
    expect(result.documents[1]?.error?.code).toBe('pdf_corrupt');
    expect((await searchDocIds(api.keys.bob, 'RB-1002 rotates')).ids).toContain('runbooks/beta.md');
  });

  describe('refuses requests it must not act on, storing nothing', () => {
    let documentsBefore: number;
    beforeAll(async () => {
      documentsBefore = (await api.evident.store.stats()).documents;
    });
    afterAll(async () => {
      expect((await api.evident.store.stats()).documents).toBe(documentsBefore);
    });

    it('401 without a key or with a bad key, 403 for a member', async () => {
      for (const key of [undefined, 'evk_not-a-key', api.keys.admin + 'x']) {
        const response = await api.request('POST', '/v1/documents', {
          ...(key === undefined ? {} : { key }),
          body: form([['x.md', OPEN_POLICY]]),
        });
        expect(response.status).toBe(401);
        expect(errorOf(response).code).toBe('unauthorized');
      }
      const member = await upload(form([['x.md', OPEN_POLICY]]), api.keys.alice);
      expect(member.status).toBe(403);
      expect(errorOf(member)).toMatchObject({ code: 'forbidden', message: 'Only an admin may upload documents.' });
    });

    it.each([
      ['a JSON body', { 'content-type': 'application/json' }, '{"files": []}', /multipart\/form-data/],
      ['no file parts', undefined, form([], { folder: 'x' }), /no file parts named "files"/],
      [
        'a text "files" field',
        undefined,
        (() => {
          const f = new FormData();
          f.append('files', 'just text');
          return f;
        })(),
        /must be files/,
      ],
      [
        'an unknown field',
        undefined,
        form([['x.md', OPEN_POLICY]], { acls: 'group:legal' }),
        /Unknown form field "acls"/,
      ],
      ['an invalid ACL entry', undefined, form([['x.md', OPEN_POLICY]], { acl: 'legal' }), /Invalid ACL entry "legal"/],
      [
        'a duplicate file name',
        undefined,
        form([
          ['x.md', OPEN_POLICY],
          ['x.md', LEGAL_CONTRACT],
        ]),
        /both be stored as "x.md"/,
      ],
      ['a sidecar ACL file', undefined, form([['x.md.acl.json', '{"acl": []}']]), /ACL sidecar/],
      [
        'a malformed multipart body',
        { 'content-type': 'multipart/form-data; boundary=abc' },
        '--abc\r\nContent-Disposition: form-data; name="files"; filename="x.md"\r\n\r\nno closing boundary',
        /could not be parsed/,
      ],
    ] as const)('400 with a hint for %s', async (_label, headers, body, message) => {
      const response = await api.request('POST', '/v1/documents', {
        key: api.keys.admin,
        body,
        ...(headers ? { headers } : {}),
      });
      expect(response.status, response.text).toBe(400);
      const error = errorOf(response);
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(message);
      expect(error.hint).toBeTruthy();
    });

    it.each([
      ['folder "../etc"', form([['passwd.md', OPEN_POLICY]], { folder: '../etc' }), /"\.\." segment/],
      ['folder "a/../../b"', form([['x.md', OPEN_POLICY]], { folder: 'a/../../b' }), /"\.\." segment/],
      ['an absolute folder', form([['x.md', OPEN_POLICY]], { folder: '/etc' }), /is absolute/],
      ['a drive-letter folder', form([['x.md', OPEN_POLICY]], { folder: 'C:/Windows' }), /is absolute/],
      ['a backslash folder', form([['x.md', OPEN_POLICY]], { folder: '..\\..\\etc' }), /backslash/],
      ['an empty folder segment', form([['x.md', OPEN_POLICY]], { folder: 'a//b' }), /empty/],
      ['a file name "../x.md"', form([['../x.md', OPEN_POLICY]]), /path separator/],
      ['a file name "..\\\\x.md"', form([['..\\x.md', OPEN_POLICY]]), /path separator/],
      ['a file name ".."', form([['..', OPEN_POLICY]]), /is not allowed/],
    ])('400 for path traversal: %s', async (_label, body, message) => {
      const response = await upload(body);
      expect(response.status, response.text).toBe(400);
      const error = errorOf(response);
      expect(error.message).toMatch(message);
      expect(error.hint).toMatch(/folder/);
    });

    it('400 for a file part with an empty file name', async () => {
      const body =
        '--abc\r\nContent-Disposition: form-data; name="files"; filename=""\r\nContent-Type: text/plain\r\n\r\nhello\r\n--abc--\r\n';
      const response = await api.request('POST', '/v1/documents', {
        key: api.keys.admin,
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      });
      expect(response.status, response.text).toBe(400);
      expect(errorOf(response).hint).toBeTruthy();
    });
  });

  it('removes every temp folder it wrote', async () => {
    expect(await uploadTempFolders()).toEqual([]);
  });
});

describe('the upload size limit (ingest.maxFileBytes per request)', () => {
  let small: ApiTestServer;
  beforeAll(async () => {
    small = await startApiTestServer({ env: { EVIDENT_MAX_FILE_BYTES: '4096' }, corpus: false });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('refuses a larger request with 413 and a hint, and still takes a smaller one', async () => {
    const big = form([['big.txt', 'lorem ipsum '.repeat(1000)]]);
    const refused = await small.request('POST', '/v1/documents', { key: small.keys.admin, body: big });
    expect(refused.status).toBe(413);
    expect(errorBodyJson.parse(refused.json).error).toMatchObject({
      code: 'payload_too_large',
      hint: expect.stringContaining('EVIDENT_MAX_FILE_BYTES'),
    });
    expect((await small.evident.store.stats()).documents).toBe(0);

    const fits = await small.request('POST', '/v1/documents', {
      key: small.keys.admin,
      body: form([['small.txt', 'Small note SN-77 about nothing.']]),
    });
    expect(fits.status).toBe(201);
  });

  it('counts a chunked body without Content-Length as it arrives', async () => {
    const encoded = new Response(form([['big.txt', 'lorem ipsum '.repeat(1000)]]));
    const response = await fetch(`${small.url}/v1/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${small.keys.admin}`,
        'content-type': encoded.headers.get('content-type') ?? '',
      },
      body: encoded.body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});

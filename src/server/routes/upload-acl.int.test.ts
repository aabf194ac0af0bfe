import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { buildDocxFromBody } from '../../testing/docx-builder.ts';
import { buildXlsx } from '../../testing/xlsx-builder.ts';
import { errorBodyJson } from '../openapi/error-schema.ts';
import { uploadSummaryJson } from '../schemas/upload-json.ts';

let api: ApiTestServer;

const RESTRICTED = '---\nacl: [group:legal]\n---\n# Board minutes\n\nThe board approved budget line BL-4471-Zephyr.\n';

function form(files: [name: string, content: string | Uint8Array][], fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [name, content] of files) body.append('files', new Blob([content]), name);
  for (const [field, value] of Object.entries(fields)) body.append(field, value);
  return body;
}

const upload = (body: FormData) => api.request('POST', '/v1/documents', { key: api.keys.admin, body });
const storedIds = async () => (await api.evident.store.listDocuments(LOCAL_OPERATOR)).map((d) => d.docId);

beforeAll(async () => {
  api = await startApiTestServer({ corpus: false });
});

afterAll(async () => {
  await api?.close();
});

describe('the acl field of an upload', () => {
  it.each([[','], [''], [' , ']])(
    'refuses %j with 400 acl_empty and stores nothing, instead of making the files public',
    async (acl) => {
      const response = await upload(form([['minutes.md', RESTRICTED]], { acl }));
      expect(response.status).toBe(400);
      expect(errorBodyJson.parse(response.json).error).toEqual({
        code: 'acl_empty',
        message: 'The ACL in the "acl" field is empty, which would make the documents it covers visible to everyone.',
        hint: 'Name who may read them (e.g. group:legal,user:bob), or write "public" to make them visible to every user on purpose.',
      });
      expect(await storedIds()).toEqual([]);
    },
  );

  it('makes the files public only when it says public, over their own front matter', async () => {
    const response = await upload(form([['open-minutes.md', RESTRICTED]], { acl: 'public' }));
    expect(response.status).toBe(201);
    expect((await api.evident.store.getDocument('open-minutes.md'))?.acl).toEqual([]);
    const bob = await api.request('POST', '/v1/search', {
      key: api.keys.bob,
      json: { query: 'BL-4471-Zephyr', top_k: 5 },
    });
    expect(bob.text).toContain('open-minutes.md');
  });

  it('shows readers the upload label as source, never the temp folder it was written to', async () => {
    await upload(form([['labelled.md', '# Labelled\n\nLabel text QX-9.\n']], { acl: 'group:legal', folder: 'kb' }));
    const found = await api.request('POST', '/v1/search', { key: api.keys.alice, json: { query: 'QX-9', top_k: 5 } });
    expect(found.text).toContain('"source":"upload:kb/labelled.md"');
    expect(found.text).not.toMatch(/evident-upload-|\/tmp\//);
  });
});

describe('names and bombs in an upload', () => {
  it.each([
    ['invoice\u202Efdp.md', {}, /The file name "invoice<U\+202E>fdp\.md" holds a control or bidirectional character/],
    ['a\u0085b.md', {}, /The file name "a<U\+0085>b\.md" holds a control or bidirectional character/],
    [
      'ok.md',
      { folder: 'x\u2066y' },
      /The folder "x<U\+2066>y" has a backslash, a control or a bidirectional character/,
    ],
  ])('refuses %j with 400 before writing it', async (name, fields, message) => {
    const response = await upload(form([[name, '# T\n\nText.\n']], fields));
    expect(response.status).toBe(400);
    expect(errorBodyJson.parse(response.json).error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(message),
    });
  });

  it('fails each bomb with file_limit_exceeded naming its setting, and ingests the rest of the request', async () => {
    const response = await upload(
      form(
        [
          [
            'range.xlsx',
            buildXlsx([
              { name: 'S', dimension: 'A1:XFD1048576', sheetData: '<row r="1"><c r="A1"><v>1</v></c></row>' },
            ]),
          ],
          ['paragraphs.docx', buildDocxFromBody('<w:p/>'.repeat(1_000_000))],
          ['fine.md', '# Fine\n\nThis one is fine, FN-77.\n'],
        ],
        { acl: 'group:legal' },
      ),
    );
    expect(response.status).toBe(201);
    const summary = uploadSummaryJson.parse(response.json);
    expect(summary.documents.map((d) => [d.doc_id, d.status, d.error?.code])).toEqual([
      ['range.xlsx', 'failed', 'file_limit_exceeded'],
      ['paragraphs.docx', 'failed', 'file_limit_exceeded'],
      ['fine.md', 'ingested', undefined],
    ]);
    expect(summary.documents[0]?.error).toEqual({
      code: 'file_limit_exceeded',
      message: 'range.xlsx has a table 16,384 columns wide, over the ingest.maxTableColumns limit of 1,000 columns.',
      hint: 'Split the file, or raise ingest.maxTableColumns (EVIDENT_MAX_TABLE_COLUMNS) if it is genuine.',
    });
    expect(summary.documents[1]?.error?.message).toContain('over the ingest.maxXmlElements limit of 500,000 elements');
  });
});

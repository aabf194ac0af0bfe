import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { buildEml } from '../../testing/mail-builder.ts';
import { documentListJson } from '../openapi/paths/document-paths.ts';

let api: ApiTestServer;

beforeAll(async () => {
  api = await startApiTestServer({ corpus: false });
  const body = new FormData();
  const mail = (name: string, spec: Parameters<typeof buildEml>[0]) =>
    body.append('files', new Blob([new Uint8Array(buildEml(spec))]), name);
  mail('root.eml', { from: 'a@x.org', subject: 'Berths', messageId: '<root@x.org>', text: 'Which berth?' });
  mail('reply.eml', {
    from: 'b@x.org',
    subject: 'Re: Berths',
    messageId: '<reply@x.org>',
    inReplyTo: '<root@x.org>',
    references: '<root@x.org>',
    text: 'Berth 4.\n\n> Which berth?',
  });
  mail('lunch.eml', { from: 'c@x.org', subject: 'Lunch', messageId: '<lunch@x.org>', text: 'Noon?' });
  body.append('acl', 'group:legal');
  const response = await api.request('POST', '/v1/documents', { key: api.keys.admin, body });
  expect(response.status, response.text).toBe(201);
});

afterAll(async () => {
  await api?.close();
});

const listed = async (key: string, query: string) => {
  const response = await api.request('GET', `/v1/documents${query}`, { key });
  expect(response.status, response.text).toBe(200);
  return documentListJson.parse(response.json).documents.map((doc) => [doc.doc_id, doc.metadata.thread]);
};

describe('GET /v1/documents?thread=', () => {
  it('lists the messages of one thread, for those who may read them', async () => {
    expect(await listed(api.keys.alice, '?thread=root%40x.org')).toEqual([
      ['reply.eml', 'root@x.org'],
      ['root.eml', 'root@x.org'],
    ]);
    expect(await listed(api.keys.alice, '')).toHaveLength(3);
    expect(await listed(api.keys.bob, '?thread=root%40x.org')).toEqual([]);
  });
});

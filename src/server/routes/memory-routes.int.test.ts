import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiResponse, type ApiTestServer } from '../../testing/api-test-server.ts';
import { errorBodyJson } from '../openapi/error-schema.ts';
import { memoryListJson } from '../openapi/paths/memory-paths.ts';

let api: ApiTestServer;
const ids: Record<'alice1' | 'alice2' | 'bob', string> = { alice1: '', alice2: '', bob: '' };

async function remember(user: string, text: string, source?: string): Promise<string> {
  const [vector] = await api.evident.embedder.embed([text], 'document');
  if (!vector) throw new Error('the embedder returned no vector');
  const { memory } = await api.evident.store.addMemory({ user, text, vector, ...(source ? { source } : {}) });
  return memory.id;
}

const memoriesOf = async (key: string) => {
  const response = await api.request('GET', '/v1/memories', { key });
  expect(response.status).toBe(200);
  return memoryListJson.parse(response.json).memories;
};
const errorOf = (response: ApiResponse) => errorBodyJson.parse(response.json).error;

beforeAll(async () => {
  api = await startApiTestServer({ corpus: false });
  ids.alice1 = await remember('alice', 'I prefer answers in German.', 'thread:t-1');
  ids.bob = await remember('bob', 'My team owns the webhooks service.');
  ids.alice2 = await remember('alice', 'I work on the Northwind contract.');
});

afterAll(async () => {
  await api?.close();
});

describe('GET /v1/memories', () => {
  it("lists the key's user's own memories, oldest first, and nobody else's", async () => {
    const alice = await memoriesOf(api.keys.alice);
    expect(alice.map((m) => m.id)).toEqual([ids.alice1, ids.alice2]);
    expect(alice[0]).toMatchObject({ text: 'I prefer answers in German.', source: 'thread:t-1' });
    expect(alice[1]?.source).toBeNull();
    expect(Date.parse(alice[0]?.created_at ?? '')).not.toBeNaN();
    expect((await memoriesOf(api.keys.bob)).map((m) => m.text)).toEqual(['My team owns the webhooks service.']);
  });

  it("shows the admin key no user's memories: it is nobody's own", async () => {
    expect(await memoriesOf(api.keys.admin)).toEqual([]);
  });

  it('401 without a key or with a bad key', async () => {
    for (const key of [undefined, 'evk_bad', api.keys.alice + 'x']) {
      const response = await api.request('GET', '/v1/memories', key === undefined ? {} : { key });
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('unauthorized');
      expect(response.text).not.toContain('German');
    }
  });
});

describe('DELETE /v1/memories/:id', () => {
  it('401 without a key or with a bad key, deleting nothing', async () => {
    for (const key of [undefined, 'evk_bad']) {
      const response = await api.request('DELETE', `/v1/memories/${ids.alice1}`, key === undefined ? {} : { key });
      expect(response.status).toBe(401);
    }
    expect(await memoriesOf(api.keys.alice)).toHaveLength(2);
  });

  it("answers another user's memory exactly as a missing one (404), and leaves it in place", async () => {
    const missingId = randomUUID();
    const others = await api.request('DELETE', `/v1/memories/${ids.bob}`, { key: api.keys.alice });
    const missing = await api.request('DELETE', `/v1/memories/${missingId}`, { key: api.keys.alice });
    expect(others.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(errorOf(others)).toEqual({
      ...errorOf(missing),
      message: errorOf(missing).message.replace(missingId, ids.bob),
    });
    expect(others.text).not.toContain('webhooks');
    expect(others.text).not.toContain('bob');
    expect((await api.request('DELETE', `/v1/memories/${ids.bob}`, { key: api.keys.admin })).status).toBe(404);
    expect((await memoriesOf(api.keys.bob)).map((m) => m.id)).toEqual([ids.bob]);
  });

  it("deletes one of the user's own memories, once", async () => {
    const deleted = await api.request('DELETE', `/v1/memories/${ids.alice1}`, { key: api.keys.alice });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: ids.alice1 });
    expect((await memoriesOf(api.keys.alice)).map((m) => m.id)).toEqual([ids.alice2]);
    expect((await api.request('DELETE', `/v1/memories/${ids.alice1}`, { key: api.keys.alice })).status).toBe(404);
  });
});

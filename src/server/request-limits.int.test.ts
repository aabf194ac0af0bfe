import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { LIMITS_DEFAULTS } from '../config/index.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';

/** Oversized and over-deep JSON, sent over real HTTP to every route that reads JSON: refused, and the server goes on. */
let api: ApiTestServer;
let threadId: string;

interface ErrorShape {
  error: { code: string; message: string; hint: string | null };
}
const errorOf = (json: unknown) => (json as ErrorShape).error;
/** The OpenAI-compatible route answers in OpenAI's shape, where the hint ends the message. */
const hintOf = (json: unknown) => errorOf(json).hint ?? errorOf(json).message;

const raw = (path: string, key: string, body: string) =>
  api.request('POST', path, { key, headers: { 'content-type': 'application/json' }, body });

async function expectHealthy(): Promise<void> {
  const health = await api.request('GET', '/health');
  expect([health.status, health.json]).toEqual([200, { status: 'ok' }]);
}

/** Every route that takes a JSON body, with who may call it; `{…}` becomes the route's valid body, padded. */
const jsonRoutes = (): { path: string; key: string }[] => [
  { path: '/v1/search', key: api.keys.alice },
  { path: '/v1/users', key: api.keys.admin },
  { path: '/v1/chat/completions', key: api.keys.alice },
  { path: '/threads', key: api.keys.alice },
  { path: '/threads/search', key: api.keys.alice },
  { path: `/threads/${threadId}/history`, key: api.keys.alice },
  { path: `/threads/${threadId}/runs`, key: api.keys.alice },
  { path: `/threads/${threadId}/runs/stream`, key: api.keys.alice },
  { path: `/threads/${threadId}/runs/wait`, key: api.keys.alice },
  { path: '/runs', key: api.keys.alice },
  { path: '/runs/stream', key: api.keys.alice },
  { path: '/runs/wait', key: api.keys.alice },
];

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  threadId = ((await api.request('POST', '/threads', { key: api.keys.alice, json: {} })).json as { thread_id: string })
    .thread_id;
});
afterAll(async () => api?.close());

describe('request body limits', () => {
  it('refuses a body over limits.maxBodyBytes with 413 on every JSON route, and nothing is stored', async () => {
    const body = JSON.stringify({ query: 'x'.repeat(LIMITS_DEFAULTS.maxBodyBytes) });
    for (const { path, key } of jsonRoutes()) {
      const sent = await raw(path, key, body);
      expect([path, sent.status, errorOf(sent.json).code]).toEqual([path, 413, 'payload_too_large']);
      expect(hintOf(sent.json)).toContain('limits.maxBodyBytes (EVIDENT_MAX_BODY_BYTES)');
      await expectHealthy();
    }
    expect((await api.evident.store.listThreads('alice')).map((thread) => thread.threadId)).toEqual([threadId]);
    expect(await api.evident.store.listRuns(threadId, 'alice')).toEqual([]);
  });

  it('refuses a 2 MB search body while /health is answered beside it', async () => {
    const query = Array.from({ length: 300_000 }, (_, i) => `w${i}`)
      .join(' ')
      .slice(0, 2_000_000);
    const [search, health] = await Promise.all([
      api.request('POST', '/v1/search', { key: api.keys.alice, json: { query } }),
      api.request('GET', '/health'),
    ]);
    expect([search.status, errorOf(search.json).code, health.status]).toEqual([413, 'payload_too_large', 200]);
  });

  it('answers 413 to a chunked body with no Content-Length as soon as it passes the limit, before the client ends it', async () => {
    const url = new URL('/v1/search', api.url);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const answered = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>(
      (resolve, reject) => {
        const req = httpRequest(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${api.keys.alice}`,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        });
        req.on('error', reject);
        req.write('{"query": "');
        // Writes for as long as the server has not answered: a body that never ends unless the server refuses it.
        const timer = setInterval(() => {
          req.write(chunk);
          sent += chunk.length;
        }, 2);
        req.on('response', (response) => {
          const sentWhenAnswered = sent;
          clearInterval(timer);
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (data: string) => void (text += data));
          response.on('end', () => {
            req.destroy();
            resolve({ status: response.statusCode ?? 0, body: text, sentWhenAnswered });
          });
        });
      },
    );
    expect(answered.status).toBe(413);
    expect(errorOf(JSON.parse(answered.body)).code).toBe('payload_too_large');
    // Refused within a few chunks of the limit, not after buffering whatever the client kept sending.
    expect(answered.sentWhenAnswered).toBeLessThan(LIMITS_DEFAULTS.maxBodyBytes * 4);
    await expectHealthy();
  });

  it('refuses 200,000-deep JSON with a typed 400 naming limits.maxJsonDepth on every JSON route', async () => {
    // 400 kB: well within the body limit, so depth alone refuses it.
    const deep = `{"metadata": {"a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    for (const { path, key } of jsonRoutes()) {
      const sent = await raw(path, key, deep);
      expect([path, sent.status, errorOf(sent.json).code]).toEqual([path, 400, 'input_too_large']);
      expect(hintOf(sent.json)).toContain('limits.maxJsonDepth (EVIDENT_MAX_JSON_DEPTH)');
    }
    await expectHealthy();
    expect((await api.evident.store.listThreads('alice')).length).toBe(1);
  });

  it('counts only real nesting: brackets inside strings do not count, and the limit itself is allowed', async () => {
    const atLimit = (depth: number) => `${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}`;
    const brackets = await raw(
      '/threads',
      api.keys.alice,
      JSON.stringify({ metadata: { note: '[{'.repeat(5_000) + '\\"[' } }),
    );
    expect(brackets.status).toBe(200);
    // The body's outer object is one level: maxJsonDepth levels in all are taken (history's body ignores unknown fields)…
    const history = `/threads/${threadId}/history`;
    expect((await raw(history, api.keys.alice, `{"x": ${atLimit(LIMITS_DEFAULTS.maxJsonDepth)}}`)).status).toBe(200);
    // …and one more is refused.
    const over = await raw(history, api.keys.alice, `{"x": ${atLimit(LIMITS_DEFAULTS.maxJsonDepth + 1)}}`);
    expect([over.status, errorOf(over.json).code]).toEqual([400, 'input_too_large']);
  });

  it('still says so when the body is not JSON at all', async () => {
    const sent = await raw('/v1/search', api.keys.alice, '{"query": ');
    expect([sent.status, errorOf(sent.json).code, errorOf(sent.json).message]).toEqual([
      400,
      'invalid_input',
      'The request body is not valid JSON.',
    ]);
    const latin1 = await api.request('POST', '/v1/search', {
      key: api.keys.alice,
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect([latin1.status, errorOf(latin1.json).message]).toEqual([400, 'The request body is not valid UTF-8.']);
  });
});

describe('search query limits', () => {
  const search = (query: string) => api.request('POST', '/v1/search', { key: api.keys.alice, json: { query } });

  it('refuses a query over limits.maxQueryChars', async () => {
    const sent = await search('fee '.repeat(LIMITS_DEFAULTS.maxQueryChars));
    expect([sent.status, errorOf(sent.json).code]).toEqual([400, 'input_too_large']);
    expect(errorOf(sent.json).message).toBe(
      `The query has ${'fee '.repeat(LIMITS_DEFAULTS.maxQueryChars).trim().length} characters; the limit is ${LIMITS_DEFAULTS.maxQueryChars}.`,
    );
    expect(errorOf(sent.json).hint).toBe(
      'Send a shorter query, or raise limits.maxQueryChars (EVIDENT_MAX_QUERY_CHARS).',
    );
    await expectHealthy();
  });

  it('refuses a query with more distinct terms than limits.maxQueryTerms, and takes one at the limit', async () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(' ');
    const over = await search(terms(LIMITS_DEFAULTS.maxQueryTerms + 1));
    expect([over.status, errorOf(over.json).code]).toEqual([400, 'input_too_large']);
    expect(errorOf(over.json).hint).toContain('limits.maxQueryTerms (EVIDENT_MAX_QUERY_TERMS)');
    expect((await search(terms(LIMITS_DEFAULTS.maxQueryTerms))).status).toBe(200);
    // Repeating a term does not count twice: what costs is distinct terms.
    expect((await search('termination fee '.repeat(100))).status).toBe(200);
    await expectHealthy();
  });
});

describe('limits from the configuration', () => {
  let small: ApiTestServer;
  beforeAll(async () => {
    small = await startApiTestServer({
      corpus: false,
      env: { EVIDENT_MAX_BODY_BYTES: '2048', EVIDENT_MAX_QUERY_TERMS: '3', EVIDENT_MAX_JSON_DEPTH: '4' },
    });
  });
  afterAll(async () => small?.close());

  it('applies EVIDENT_MAX_BODY_BYTES, EVIDENT_MAX_QUERY_TERMS and EVIDENT_MAX_JSON_DEPTH', async () => {
    const body = (query: string) => small.request('POST', '/v1/search', { key: small.keys.alice, json: { query } });
    const big = await body('x'.repeat(3000));
    expect([big.status, errorOf(big.json).message]).toEqual([
      413,
      "The request body is larger than the server's limit of 2048 bytes.",
    ]);
    const terms = await body('alpha beta gamma delta');
    expect([terms.status, errorOf(terms.json).message]).toEqual([
      400,
      'The query has 4 distinct terms; the limit is 3.',
    ]);
    expect((await body('alpha beta gamma')).status).toBe(200);
    const deep = await small.request('POST', '/v1/search', {
      key: small.keys.alice,
      headers: { 'content-type': 'application/json' },
      body: '{"query": "x", "channels": [[[["bm25"]]]]}',
    });
    expect([deep.status, errorOf(deep.json).code]).toEqual([400, 'input_too_large']);
  });
});

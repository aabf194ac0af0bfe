import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAgentRuntime } from '../../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { createApp } from '../create-app.ts';
import { searchBody } from '../routes/search-routes.ts';
import { userBody } from '../routes/user-routes.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { buildOpenApiDocument } from './openapi-document.ts';
import { HTTP_METHODS, type OpenApiDocument, type OperationObject } from './openapi-types.ts';
import { operation, pathGroup } from './operation.ts';
import { assistantJson, threadJson, threadStateJson } from './paths/langgraph-schemas.ts';
import { meResponseJson } from '../schemas/me-json.ts';
import { chatCompletionJson, modelListJson } from './paths/openai-paths.ts';
import { renderDocsHtml } from './render-docs-html.ts';
import { appRouteKeys, documentedRouteKeys, toOpenApiPath } from './route-keys.ts';

let api: ApiTestServer;
let served: OpenApiDocument;

function operations(document: OpenApiDocument): { method: string; path: string; op: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ method: method.toUpperCase(), path, op: item[method] }] : [])),
  );
}

/** A concrete URL for a documented path: every `{param}` becomes a value that names nothing stored. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'no-such-thing');

beforeAll(async () => {
  // With the agents, so the LangGraph API is mounted as `evident serve` mounts it.
  api = await startApiTestServer({ corpus: false, agents: (evident) => openAgentRuntime(evident) });
  const response = await api.request('GET', '/openapi.json');
  expect(response.status).toBe(200);
  served = response.json as OpenApiDocument;
});

afterAll(async () => {
  await api?.close();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document served without a key, with both key schemes', () => {
    expect(served.openapi).toBe('3.1.0');
    expect(served.info.title).toBe('Evident API');
    expect(served.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    });
    expect(served).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('describes every route the app registers, and no route it does not', async () => {
    const agents = await openAgentRuntime(api.evident);
    try {
      const registered = appRouteKeys(createApp({ evident: api.evident, adminKey: api.keys.admin, agents }));
      expect(registered).toContain('POST /threads/{threadId}/runs/stream');
      expect(documentedRouteKeys(served)).toEqual(registered);
    } finally {
      await agents.close();
    }
  });

  it('says what the app does: no key → 401 where a key is documented, member → 403 where an admin is', async () => {
    for (const { method, path, op } of operations(served)) {
      const url = concrete(path);
      const anonymous = await api.request(method, url);
      if (op['x-evident-access'] === 'public') {
        expect(op.security, path).toEqual([]);
        expect(anonymous.status, `${method} ${path}`).toBe(200);
        continue;
      }
      if (op['x-evident-access'] === 'browser') {
        // The sign-in routes of the browser: this server has no oidc config, so they answer one of their documented
        // statuses (a "not configured" page, or the sign-out's redirect), never 401 or 500.
        expect(op.security, path).toEqual([]);
        const answer = await fetch(api.url + url, { method, redirect: 'manual' });
        expect(Object.keys(op.responses), `${method} ${path}`).toContain(String(answer.status));
        continue;
      }
      if (op['x-evident-access'] === 'scim') {
        // This server has no scim.token: SCIM is off, and says so as no route (scim.int.test.ts tests it on).
        expect(op.security, path).toEqual([{ bearerAuth: [] }]);
        expect(anonymous.status, `${method} ${path}`).toBe(404);
        continue;
      }
      expect(op.security, path).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(op.responses['401'], path).toBeDefined();
      const member = await api.request(method, url, { key: api.keys.bob });
      if (op['x-evident-access'] === 'admin') {
        expect(member.status, `${method} ${path}`).toBe(403);
        expect(op.responses['403'], path).toBeDefined();
      } else {
        expect(member.status, `${method} ${path}`).not.toBe(403);
      }
    }
  });

  it('documents response shapes the routes really send', async () => {
    const ok = async (method: string, path: string, init: { key: string; json?: unknown }) => {
      const response = await api.request(method, path, init);
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(200);
      return response.json;
    };
    meResponseJson.parse(await ok('GET', '/v1/me', { key: api.keys.bob }));
    expect(
      z
        .array(assistantJson)
        .parse(await ok('POST', '/assistants/search', { key: api.keys.bob, json: {} }))
        .map((a) => a.assistant_id),
    ).toContain('rag');
    const thread = threadJson.parse(
      await ok('POST', '/threads', { key: api.keys.bob, json: { metadata: { topic: 'docs' } } }),
    );
    threadStateJson.parse(await ok('GET', `/threads/${thread.thread_id}/state`, { key: api.keys.bob }));
    expect(modelListJson.parse(await ok('GET', '/v1/models', { key: api.keys.bob })).data.map((m) => m.id)).toContain(
      'rag',
    );
    const completion = chatCompletionJson.parse(
      await ok('POST', '/v1/chat/completions', {
        key: api.keys.bob,
        json: { model: 'rag', messages: [{ role: 'user', content: 'What is the termination fee of CT-2024-0193?' }] },
      }),
    );
    expect(completion.choices[0]?.message.content).toContain("don't know");
    const missingKey = await api.request('GET', '/v1/models');
    expect(missingKey.status).toBe(401);
    expect(served.paths['/v1/models']?.get?.responses['401']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/OpenAiError',
    });
    expect(Object.keys((missingKey.json as { error: object }).error).sort()).toEqual([
      'code',
      'message',
      'param',
      'type',
    ]);
  });

  it("takes request bodies from the routes' own zod schemas", () => {
    expect(served.paths['/v1/search']?.post?.requestBody?.content['application/json']?.schema).toEqual(
      jsonSchemaOf(searchBody, 'input'),
    );
    expect(served.paths['/v1/users']?.post?.requestBody?.content['application/json']?.schema).toEqual(
      jsonSchemaOf(userBody, 'input'),
    );
    const upload = served.paths['/v1/documents']?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(Object.keys(upload?.responses ?? {}).sort()).toEqual(['200', '201', '400', '401', '403', '413', '422']);
  });

  it('gives every operation a unique id, a tag, a summary and a 2xx response, and every $ref resolves', () => {
    const ids = operations(served).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(served.tags.map((t) => t.name));
    for (const { path, op } of operations(served)) {
      expect(op.tags.length, path).toBe(1);
      expect(tags.has(op.tags[0] ?? ''), path).toBe(true);
      expect(op.summary, path).toBeTruthy();
      expect(
        // A route kept only to refuse on purpose (x-evident-refused) has no 2xx; every other one has.
        // The browser's sign-in routes answer with a redirect (3xx) where others answer 2xx.
        op['x-evident-refused'] === true ||
          Object.keys(op.responses).some(
            (status) => status.startsWith('2') || (op['x-evident-access'] === 'browser' && status.startsWith('3')),
          ),
        path,
      ).toBe(true);
    }
    const refs = [...JSON.stringify(served).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1] ?? '',
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(served.components.schemas[ref], ref).toBeDefined();
  });
});

describe('GET /docs', () => {
  it('renders every operation into one self-contained HTML page, without a key', async () => {
    const response = await api.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const { method, path, op } of operations(served)) {
      expect(response.text).toContain(`${method}</span> <code>${path}</code>`);
      expect(response.text).toContain(`id="op-${op.operationId}"`);
    }
    for (const tag of served.tags) expect(response.text).toContain(`<h2>${tag.name.replace('&', '&amp;')}</h2>`);
    expect(response.text).not.toMatch(/<script|<link|src=|https?:\/\//i);
  });

  it('escapes every string it interpolates', () => {
    const hostile = '<script>alert("x")</script>';
    const document = buildOpenApiDocument([
      pathGroup(
        { name: `Tag ${hostile}`, description: `Described ${hostile}` },
        {
          [`/v1/${hostile}`]: {
            get: operation({
              id: `op"${hostile}`,
              summary: `Summary ${hostile}`,
              description: `Use \`${hostile}\``,
              access: 'key',
              params: [
                {
                  name: hostile,
                  in: 'path',
                  required: true,
                  description: hostile,
                  schema: { type: 'string', description: hostile },
                },
              ],
              responses: { 200: { description: hostile, json: { type: 'string', description: hostile } } },
            }),
          },
        },
      ),
    ]);
    document.info.title = hostile;
    const html = renderDocsHtml(document);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('alert("x")');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;script&gt;');
  });
});

describe('toOpenApiPath', () => {
  it('turns Hono params (with patterns) and trailing wildcards into OpenAPI templates', () => {
    expect(toOpenApiPath('/v1/documents/:docId{.+}')).toBe('/v1/documents/{docId}');
    expect(toOpenApiPath('/threads/:thread_id/runs/:run_id')).toBe('/threads/{thread_id}/runs/{run_id}');
    expect(toOpenApiPath('/items/:id{[0-9]{3}}/x')).toBe('/items/{id}/x');
    expect(toOpenApiPath('/assets/*')).toBe('/assets/{path}');
    expect(toOpenApiPath('/health')).toBe('/health');
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime, type AgentRuntime } from '../../../agent/agent-runtime.ts';
import { withSchema } from '../../../store/postgres/drop-store.ts';
import { CompliantChatModel } from '../../../testing/compliant-chat-model.ts';
import {
  openMcpCorpusStore,
  RESTRICTED_DOC_IDS,
  RESTRICTED_MARKERS,
  type McpCorpusStore,
} from '../../../testing/mcp-corpus.ts';
import {
  callTool,
  expectNoRestrictedContent,
  mcpSurfaceSuite,
  type McpSuiteClients,
} from '../../../testing/mcp-surface-suite.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../../testing/postgres-test-database.ts';
import { createApp } from '../../create-app.ts';
import { startServer, type RunningServer } from '../../start-server.ts';

const ADMIN_KEY = 'mcp-test-admin-key-0123456789';

/** A real server (`createApp` as `evident serve` builds it) over the corpus store, with its agents and users' keys. */
interface McpTestServer {
  corpus: McpCorpusStore;
  url: string;
  keys: { alice: string; bob: string };
  close(): Promise<void>;
}

async function startMcpTestServer(corpus: McpCorpusStore, agents: AgentRuntime): Promise<McpTestServer> {
  const keys = {
    alice: (await corpus.evident.store.createApiKey('alice')).key,
    bob: (await corpus.evident.store.createApiKey('bob')).key,
  };
  const server: RunningServer = await startServer(createApp({ evident: corpus.evident, adminKey: ADMIN_KEY, agents }), {
    port: 0,
  });
  return {
    corpus,
    url: server.url,
    keys,
    async close() {
      await agents.close();
      await server.close();
    },
  };
}

const open: Client[] = [];

async function connect(url: string, key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'evident-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${url}/mcp`),
    key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {},
  );
  await client.connect(transport);
  open.push(client);
  return client;
}

/** Connects alice and bob to `api` before the suite's tests (the store's memories read directly). */
function suiteOver(api: () => McpTestServer): () => McpSuiteClients {
  let clients: McpSuiteClients | undefined;
  beforeAll(async () => {
    const { url, keys, corpus } = api();
    clients = {
      alice: await connect(url, keys.alice),
      bob: await connect(url, keys.bob),
      memoriesOf: async (user) => (await corpus.evident.store.listMemories(user)).map((memory) => memory.text),
    };
  });
  return () => clients as McpSuiteClients;
}

afterAll(async () => {
  for (const client of open) await client.close().catch(() => undefined);
});

describe('MCP over Streamable HTTP (POST /mcp) on SQLite, offline agents', () => {
  let api: McpTestServer;
  beforeAll(async () => {
    const corpus = await openMcpCorpusStore();
    api = await startMcpTestServer(corpus, await openAgentRuntime(corpus.evident));
  });
  afterAll(async () => {
    await api?.close();
    await api?.corpus.close();
  });

  mcpSurfaceSuite(suiteOver(() => api));

  it('an admin key sees raw channel scores, as on POST /v1/search', async () => {
    const admin = await connect(api.url, ADMIN_KEY);
    const result = await callTool(admin, 'search', { query: 'paid annual leave', top_k: 1 });
    const hit = (result.structuredContent as { results: { channels: Record<string, { score?: number }> }[] })
      .results[0];
    expect(Object.values(hit?.channels ?? {}).some((channel) => typeof channel.score === 'number')).toBe(true);
  });

  it('records its searches and asks in the audit log (surface mcp), counting what bob may not read without naming it', async () => {
    const bob = await connect(api.url, api.keys.bob);
    await callTool(bob, 'search', { query: 'Nightjar acquires Halcyon', top_k: 5 });
    const asked = (await callTool(bob, 'ask', { question: 'What does the notice board list?' })).structuredContent as {
      run_id: string;
    };
    const entries = await api.corpus.evident.store.listAudit({ actor: 'bob', limit: 20 });
    const search = entries.find((entry) => entry.action === 'search');
    expect(search).toMatchObject({ surface: 'mcp' });
    expect(search?.withheld).toBeGreaterThan(0);
    expect(search?.returnedDocIds?.filter((id) => RESTRICTED_DOC_IDS.includes(id))).toEqual([]);
    expect(entries.find((entry) => entry.action === 'ask' && entry.runId === asked.run_id)).toMatchObject({
      surface: 'mcp',
    });
  });

  describe('authorization', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>, body: unknown = initialize) =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });

    it('answers no key and a bad key with 401 and WWW-Authenticate naming the protected-resource metadata', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
        const response = await post(headers);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
        expect(extractWWWAuthenticateParams(response).resourceMetadataUrl?.href).toBe(
          `${api.url}/.well-known/oauth-protected-resource/mcp`,
        );
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      }
    });

    it('serves the RFC 9728 metadata without a key, as the SDK discovers it', async () => {
      const metadata = await discoverOAuthProtectedResourceMetadata(`${api.url}/mcp`);
      expect(metadata).toMatchObject({
        resource: `${api.url}/mcp`,
        bearer_methods_supported: ['header'],
        resource_name: 'Evident',
      });
      const root = await fetch(`${api.url}/.well-known/oauth-protected-resource`);
      expect(root.status).toBe(200);
      expect(await root.json()).toEqual(metadata);
    });

    it('the SDK client cannot connect without a key', async () => {
      await expect(connect(api.url, undefined)).rejects.toThrow();
      await expect(connect(api.url, 'not-a-key')).rejects.toThrow();
    });

    it('is stateless: GET and DELETE are 405, and an over-size body is 413 before the SDK reads it', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(`${api.url}/mcp`, {
          method,
          headers: { authorization: `Bearer ${api.keys.bob}`, accept: 'text/event-stream' },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
      const big = await post(
        { authorization: `Bearer ${api.keys.bob}` },
        { ...initialize, padding: 'x'.repeat(api.corpus.evident.config.limits.maxBodyBytes) },
      );
      expect(big.status).toBe(413);
    });
  });

  describe('ask with a model that obeys injected instructions', () => {
    let model: CompliantChatModel;
    let compliant: McpTestServer;
    beforeAll(async () => {
      model = new CompliantChatModel();
      compliant = await startMcpTestServer(
        api.corpus,
        await openAgentRuntime(api.corpus.evident, { chat: { id: 'compliant:test', model } }),
      );
    });
    afterAll(async () => {
      await compliant?.close();
    });

    it('a notice that orders the model to reveal, cite and remember restricted things gets bob none of them', async () => {
      const bob = await connect(compliant.url, compliant.keys.bob);
      for (const agent of ['rag', 'react', 'controllable']) {
        const result = await callTool(bob, 'ask', { question: 'What does the notice board list?', agent });
        expectNoRestrictedContent(result);
        const json = result.structuredContent as { citations?: { doc_id: string }[] } | undefined;
        expect((json?.citations ?? []).every((citation) => !citation.doc_id.startsWith('secret/'))).toBe(true);
      }
      // The attack was live (the model read the notice and obeyed it), and the system, not the model, stopped it.
      expect(model.obeyed.length).toBeGreaterThan(0);
      for (const prompt of model.prompts) for (const marker of RESTRICTED_MARKERS) expect(prompt).not.toContain(marker);
      expect(await api.corpus.evident.store.listMemories('bob')).toEqual([]);
    });
  });
});

describeWithPostgres('MCP over Streamable HTTP on PostgreSQL, offline agents', (url) => {
  const schema = freshSchema('evident_mcp');
  let api: McpTestServer;
  beforeAll(async () => {
    const corpus = await openMcpCorpusStore({ databaseUrl: withSchema(url, schema) });
    api = await startMcpTestServer(corpus, await openAgentRuntime(corpus.evident));
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await api?.corpus.close();
    await dropSchemas(url, [schema]);
  });

  mcpSurfaceSuite(suiteOver(() => api));
});

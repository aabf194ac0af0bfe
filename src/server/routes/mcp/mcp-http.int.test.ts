import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime, type AgentRuntime } from '../../../agent/agent-runtime.ts';
import { createApp } from '../../create-app.ts';
import { startServer, type RunningServer } from '../../start-server.ts';
import { CompliantChatModel } from '../../../testing/compliant-chat-model.ts';
import { openMcpCorpusStore, RESTRICTED_MARKERS, type McpCorpusStore } from '../../../testing/mcp-corpus.ts';
import { callTool, expectNoRestrictedContent, mcpSurfaceSuite } from '../../../testing/mcp-surface-suite.ts';

const ADMIN_KEY = 'mcp-test-admin-key-0123456789';

let corpus: McpCorpusStore;
let offline: AgentRuntime;
let server: RunningServer;
const keys: Record<string, string> = {};
const open: Client[] = [];

async function connect(url: string, key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'evident-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {});
  await client.connect(transport);
  open.push(client);
  return client;
}

beforeAll(async () => {
  corpus = await openMcpCorpusStore();
  keys.alice = (await corpus.evident.store.createApiKey('alice')).key;
  keys.bob = (await corpus.evident.store.createApiKey('bob')).key;
  offline = openAgentRuntime(corpus.evident);
  server = await startServer(createApp({ evident: corpus.evident, adminKey: ADMIN_KEY, agents: offline }), { port: 0 });
});

afterAll(async () => {
  for (const client of open) await client.close().catch(() => undefined);
  await offline?.close();
  await server?.close();
  await corpus?.close();
});

describe('MCP over Streamable HTTP (POST /mcp), offline agents', () => {
  let alice: Client;
  let bob: Client;
  beforeAll(async () => {
    alice = await connect(server.url, keys.alice);
    bob = await connect(server.url, keys.bob);
  });
  mcpSurfaceSuite(() => ({ alice, bob, memoriesOf: async (user) => (await corpus.evident.store.listMemories(user)).map((memory) => memory.text) }));

  it('an admin key sees raw channel scores, as on POST /v1/search', async () => {
    const admin = await connect(server.url, ADMIN_KEY);
    const result = await callTool(admin, 'search', { query: 'paid annual leave', top_k: 1 });
    const hit = (result.structuredContent as { results: { channels: Record<string, { score?: number }> }[] }).results[0];
    expect(Object.values(hit?.channels ?? {}).some((channel) => typeof channel.score === 'number')).toBe(true);
  });
});

describe('MCP authorization', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

  it('answers no key and a bad key with 401 and WWW-Authenticate naming the protected-resource metadata', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect(extractWWWAuthenticateParams(response).resourceMetadataUrl?.href).toBe(`${server.url}/.well-known/oauth-protected-resource/mcp`);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it('serves the RFC 9728 metadata without a key, as the SDK discovers it', async () => {
    const metadata = await discoverOAuthProtectedResourceMetadata(`${server.url}/mcp`);
    expect(metadata).toMatchObject({ resource: `${server.url}/mcp`, bearer_methods_supported: ['header'], resource_name: 'Evident' });
    const root = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    expect(await root.json()).toEqual(metadata);
  });

  it('the SDK client cannot connect without a key', async () => {
    await expect(connect(server.url, undefined)).rejects.toThrow();
    await expect(connect(server.url, 'not-a-key')).rejects.toThrow();
  });

  it('is stateless: GET and DELETE are 405, and an over-size body is 413 before the SDK reads it', async () => {
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${keys.bob}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.bob}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ ...initialize, padding: 'x'.repeat(corpus.evident.config.limits.maxBodyBytes) }),
    });
    expect(big.status).toBe(413);
  });
});

describe('MCP ask with a model that obeys injected instructions', () => {
  let model: CompliantChatModel;
  let compliant: AgentRuntime;
  let compliantServer: RunningServer;
  beforeAll(async () => {
    model = new CompliantChatModel();
    compliant = openAgentRuntime(corpus.evident, { chat: { id: 'compliant:test', model } });
    compliantServer = await startServer(createApp({ evident: corpus.evident, adminKey: ADMIN_KEY, agents: compliant }), { port: 0 });
  });
  afterAll(async () => {
    await compliant?.close();
    await compliantServer?.close();
  });

  it('a notice that orders the model to reveal, cite and remember restricted things gets bob none of them', async () => {
    const bob = await connect(compliantServer.url, keys.bob);
    for (const agent of ['rag', 'react', 'controllable']) {
      const result = await callTool(bob, 'ask', { question: 'What does the notice board list?', agent });
      expectNoRestrictedContent(result);
      const json = result.structuredContent as { citations?: { doc_id: string }[]; status?: string } | undefined;
      expect((json?.citations ?? []).every((citation) => !citation.doc_id.startsWith('secret/'))).toBe(true);
    }
    // The attack was live (the model read the notice and obeyed it), and the system, not the model, stopped it.
    expect(model.obeyed.length).toBeGreaterThan(0);
    for (const prompt of model.prompts) for (const marker of RESTRICTED_MARKERS) expect(prompt).not.toContain(marker);
    expect(await corpus.evident.store.listMemories('bob')).toEqual([]);
  });
});

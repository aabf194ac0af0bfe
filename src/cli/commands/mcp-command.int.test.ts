import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpCorpusStore, RESTRICTED_DOC_IDS, type McpCorpusStore } from '../../testing/mcp-corpus.ts';
import { mcpSurfaceSuite, toolJson } from '../../testing/mcp-surface-suite.ts';
import { runCli } from '../../testing/run-cli.ts';

let corpus: McpCorpusStore;
/** What a desktop client's config starts: the package's bin (not a test bundle: the store's helper scripts sit beside its sources). */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(REPO, 'bin/evident.js');
const children: { client: Client; stderr: () => string; errors: Error[] }[] = [];

/** The real CLI (`evident mcp`) as a child process, spoken to by the SDK's stdio client. */
async function spawnMcp(...flags: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--db', corpus.db, 'mcp', ...flags],
    cwd: REPO,
    env: Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const client = new Client({ name: 'evident-mcp-stdio-test', version: '1.0.0' });
  const child = { client, stderr: () => stderr, errors: [] as Error[] };
  // A line on stdout that is not a protocol message surfaces here.
  client.onerror = (error) => child.errors.push(error);
  await client.connect(transport);
  children.push(child);
  return child;
}

beforeAll(async () => {
  corpus = await openMcpCorpusStore();
}, 120_000);

afterAll(async () => {
  // MCP_DEBUG=1 shows what the children logged (their stderr), to see why a call failed.
  if (process.env.MCP_DEBUG)
    for (const child of children) process.stderr.write(`--- child stderr\n${child.stderr()}\n`);
  for (const child of children) await child.client.close().catch(() => undefined);
  await corpus?.close();
});

describe('evident mcp (stdio)', () => {
  let alice: Awaited<ReturnType<typeof spawnMcp>>;
  let bob: Awaited<ReturnType<typeof spawnMcp>>;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([spawnMcp('--as', 'alice'), spawnMcp('--as', 'bob')]);
  }, 60_000);

  mcpSurfaceSuite(() => ({
    alice: alice.client,
    bob: bob.client,
    memoriesOf: async (user) => (await corpus.evident.store.listMemories(user)).map((memory) => memory.text),
  }));

  it('writes nothing but protocol on stdout, and says who it serves as on stderr', () => {
    expect(bob.errors).toEqual([]);
    expect(alice.errors).toEqual([]);
    expect(bob.stderr()).toContain('over stdio as bob');
  });

  it('serves as the local operator without --as (who reads everything)', async () => {
    const operator = await spawnMcp();
    const { documents } = await toolJson<{ documents: { doc_id: string }[] }>(operator.client, 'list_documents');
    expect(documents.map((doc) => doc.doc_id)).toEqual(expect.arrayContaining(RESTRICTED_DOC_IDS));
  });

  it('exits when the client closes its input', async () => {
    const child = await spawnMcp('--as', 'bob');
    const transport = child.client.transport as StdioClientTransport;
    const pid = transport.pid;
    expect(pid).toBeGreaterThan(0);
    await child.client.close();
    // close() ends stdin first; the process then finishes on its own (no signal needed).
    await expect.poll(() => alive(pid ?? 0), { timeout: 10_000 }).toBe(false);
  });

  it('refuses an unknown --as user with one line on stderr and exit code 1, before serving', async () => {
    const run = await runCli(['--db', corpus.db, 'mcp', '--as', 'nobody']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: No user named "nobody"\./);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

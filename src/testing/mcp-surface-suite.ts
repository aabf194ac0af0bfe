import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { PUBLIC_DOC_IDS, RESTRICTED_DOC_IDS, RESTRICTED_MARKERS } from './mcp-corpus.ts';

/** The clients a suite works with: bob reads only the public documents, alice (group legal) reads everything. */
export interface McpSuiteClients {
  alice: Client;
  bob: Client;
  /** The memories stored for a user (to show a proposed side effect did not run). */
  memoriesOf(user: string): Promise<string[]>;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call (fails the test, with the tool's text, if it was an error). */
export async function toolJson<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await callTool(client, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');

/** Everything a response holds, as one string, to look for restricted words and ids in. */
export const everything = (value: unknown): string => JSON.stringify(value);

export function expectNoRestrictedContent(value: unknown): void {
  const seen = everything(value);
  for (const marker of RESTRICTED_MARKERS) expect(seen, `"${marker}" leaked`).not.toContain(marker);
}

/** The message of a failed request, with `replace` (e.g. the id asked for) written as `<id>`: to compare two failures. */
async function failureOf(request: Promise<unknown>, replace: string): Promise<string> {
  const error = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the request should fail').toBeInstanceOf(Error);
  return (error as Error).message.replaceAll(replace, '<id>').replaceAll(encodeURIComponent(replace), '<id>');
}

type SearchJson = {
  results: {
    doc_id: string;
    chunk_id: string;
    heading: string;
    text: string;
    uri: string;
    channels: Record<string, { rank: number; score?: number }>;
  }[];
};
type AskJson = {
  status: string;
  run_id: string;
  thread_id: string;
  answer: string | null;
  answerable: boolean | null;
  citations: { chunk_id: string; doc_id: string; quote: string }[];
  missing_information: string[];
  pending_approval: { approval_id: string; tool: string; args: Record<string, unknown> } | null;
};
type TablesJson = { tables: { sql_name: string; doc_id: string; columns: { name: string }[] }[] };
type DocumentsJson = { documents: { doc_id: string; uri: string }[] };

const UUID = /^[0-9a-f-]{36}$/;

/**
 * The behaviour every MCP transport must show, written once: registered inside a `describe` whose `beforeAll`
 * connected the clients, so HTTP and stdio are held to the same tests.
 */
export function mcpSurfaceSuite(clients: () => McpSuiteClients): void {
  it('lists the six tools (no approve tool), the two resource templates and the cited_answer prompt', async () => {
    const { bob } = clients();
    const tools = (await bob.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'ask',
      'list_documents',
      'list_tables',
      'rate_answer',
      'search',
      'table_query',
    ]);
    const search = tools.find((tool) => tool.name === 'search');
    expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual(['channels', 'query', 'top_k']);
    expect(search?.outputSchema?.properties).toHaveProperty('results');
    expect((await bob.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'evident://chunks/{chunk_id}',
      'evident://documents/{doc_id}',
    ]);
    expect((await bob.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['cited_answer']);
  });

  it('searches: ranked chunks with doc_id, heading and text, ranks without raw scores for a member, and a resource link that reads the chunk', async () => {
    const { bob } = clients();
    const result = await callTool(bob, 'search', { query: 'paid annual leave', top_k: 3 });
    const json = result.structuredContent as SearchJson;
    expect(json.results[0]).toMatchObject({
      doc_id: 'policies/leave.md',
      chunk_id: 'policies/leave.md#0',
      uri: 'evident://chunks/policies%2Fleave.md%230',
    });
    expect(json.results[0]?.heading).toContain('Leave policy');
    expect(json.results[0]?.text).toContain('25 days of paid annual leave');
    for (const hit of Object.values(json.results[0]?.channels ?? {})) expect(hit.score).toBeUndefined();
    expect(result.content).toContainEqual(
      expect.objectContaining({
        type: 'resource_link',
        uri: 'evident://chunks/policies%2Fleave.md%230',
        name: 'policies/leave.md#0',
      }),
    );
    const chunk = await bob.readResource({ uri: 'evident://chunks/policies%2Fleave.md%230' });
    expect(chunk.contents[0]).toMatchObject({
      mimeType: 'text/plain',
      _meta: { doc_id: 'policies/leave.md', chunk_id: 'policies/leave.md#0' },
    });
    expect((chunk.contents[0] as { text: string }).text).toContain('25 days of paid annual leave');
  });

  it('refuses a query over the configured length with input_too_large, as the HTTP route does', async () => {
    const result = await callTool(clients().bob, 'search', { query: 'leave '.repeat(2_000) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/query.*characters.*\(input_too_large\)/s);
  });

  it('asks rag: an answer with citations of what the run retrieved, on a thread only its owner continues', async () => {
    const { alice, bob } = clients();
    const first = await toolJson<AskJson>(bob, 'ask', {
      question: 'How many days of paid annual leave does every employee receive?',
    });
    expect(first).toMatchObject({ status: 'answered', answerable: true, pending_approval: null });
    expect(first.run_id).toMatch(UUID);
    expect(first.answer).toContain('25 days');
    expect(first.citations[0]).toMatchObject({ doc_id: 'policies/leave.md', chunk_id: 'policies/leave.md#0' });
    expect(first.citations[0]?.quote.length).toBeGreaterThan(0);
    const next = await toolJson<AskJson>(bob, 'ask', {
      question: 'How many unused days carry over?',
      thread_id: first.thread_id,
    });
    expect(next.thread_id).toBe(first.thread_id);
    expect(next.run_id).not.toBe(first.run_id);
    // Another user's thread reads as a missing one.
    const foreign = await callTool(alice, 'ask', { question: 'And then?', thread_id: first.thread_id });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toContain('(not_found)');
  });

  it("rates an answer of the caller's own run, replacing a previous rating; another user's run is not found", async () => {
    const { alice, bob } = clients();
    const asked = await toolJson<AskJson>(bob, 'ask', {
      question: 'How many days of paid annual leave does every employee receive?',
    });
    type RatedJson = {
      feedback: { run_id: string; rater: string; rating: string; correction: string | null; answer: string | null };
    };
    const down = await toolJson<RatedJson>(bob, 'rate_answer', {
      run_id: asked.run_id,
      rating: 'down',
      reason: 'incomplete',
      correction: '25 days, plus public holidays.',
    });
    expect(down.feedback).toMatchObject({
      run_id: asked.run_id,
      rater: 'bob',
      rating: 'down',
      correction: '25 days, plus public holidays.',
      answer: asked.answer,
    });
    const up = await toolJson<RatedJson>(bob, 'rate_answer', { run_id: asked.run_id, rating: 'up' });
    expect(up.feedback).toMatchObject({ rating: 'up', correction: null });
    // Alice may not read bob's run: the same answer as for a run that does not exist.
    const foreign = await callTool(alice, 'rate_answer', { run_id: asked.run_id, rating: 'down' });
    const missing = await callTool(alice, 'rate_answer', { run_id: 'no-such-run', rating: 'down' });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign).replace(asked.run_id, '<id>')).toBe(textOf(missing).replace('no-such-run', '<id>'));
    const tooLong = await callTool(bob, 'rate_answer', {
      run_id: asked.run_id,
      rating: 'down',
      correction: 'x'.repeat(4_001),
    });
    expect(tooLong.isError).toBe(true);
  });

  it('refuses when the evidence is not enough: answerable false and what is missing', async () => {
    const refused = await toolJson<AskJson>(clients().bob, 'ask', {
      question: 'What is the boiling point of liquid nitrogen on Mars?',
    });
    expect(refused).toMatchObject({ status: 'refused', answerable: false, citations: [] });
    expect(refused.answer).toMatch(/^I don't know based on the current evidence/);
    expect(refused.missing_information.length).toBeGreaterThan(0);
  });

  it('queries a table read-only, and refuses anything but one SELECT', async () => {
    const { bob } = clients();
    const { tables } = await toolJson<TablesJson>(bob, 'list_tables');
    const budget = tables.find((table) => table.doc_id === 'data/budget.csv');
    expect(budget?.columns.map((column) => column.name)).toEqual(['team', 'amount']);
    const rows = await toolJson<{ columns: string[]; rows: unknown[][]; truncated: boolean }>(bob, 'table_query', {
      sql: `SELECT team, amount FROM ${budget?.sql_name} ORDER BY amount DESC`,
    });
    expect(rows).toMatchObject({
      columns: ['team', 'amount'],
      rows: [
        ['sales', 100],
        ['support', 50],
      ],
      truncated: false,
    });
    const refused = await callTool(bob, 'table_query', { sql: `DELETE FROM ${budget?.sql_name}` });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('(query_rejected)');
    expect(
      (
        await toolJson<{ rows: unknown[][] }>(bob, 'table_query', {
          sql: `SELECT count(*) AS n FROM ${budget?.sql_name}`,
        })
      ).rows,
    ).toEqual([[2]]);
  });

  it('returns a proposed side effect as a pending approval with its id, and never executes it', async () => {
    const { bob, memoriesOf } = clients();
    const pending = await toolJson<AskJson>(bob, 'ask', {
      question: 'Remember that my badge number is 4471',
      agent: 'react',
    });
    expect(pending.status).toBe('interrupted');
    expect(pending.pending_approval).toMatchObject({ tool: 'save_memory', args: { text: 'My badge number is 4471' } });
    expect(pending.pending_approval?.approval_id).toContain(pending.run_id);
    expect(await memoriesOf('bob')).toEqual([]);
    // The thread waits for a decision: asking on it again does not resume it.
    const again = await callTool(bob, 'ask', {
      question: 'Remember that my badge number is 4471',
      agent: 'react',
      thread_id: pending.thread_id,
    });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('(thread_interrupted)');
    expect(await memoriesOf('bob')).toEqual([]);
  });

  it('alice (legal) reads the restricted documents: the controls of the permission cases', async () => {
    const { alice } = clients();
    expect((await toolJson<DocumentsJson>(alice, 'list_documents')).documents.map((doc) => doc.doc_id).sort()).toEqual(
      [...PUBLIC_DOC_IDS, ...RESTRICTED_DOC_IDS].sort(),
    );
    const found = await toolJson<SearchJson>(alice, 'search', { query: 'Halcyon Robotics zebrafinch' });
    expect(found.results[0]?.doc_id).toBe('secret/nightjar.md');
    const doc = await alice.readResource({ uri: 'evident://documents/secret%2Fnightjar.md' });
    expect(everything(doc)).toContain('Halcyon Robotics');
    const prompt = await alice.getPrompt({
      name: 'cited_answer',
      arguments: { question: 'What does Project Nightjar acquire?' },
    });
    expect(everything(prompt)).toContain('Halcyon Robotics');
    expect((await toolJson<TablesJson>(alice, 'list_tables')).tables.map((table) => table.doc_id).sort()).toEqual([
      'data/budget.csv',
      'secret/payroll.csv',
    ]);
  });

  it('bob gets nothing of a restricted document through any tool, resource, prompt, error or count', async () => {
    const { alice, bob } = clients();
    // list_documents and resources/list: only the public documents, so their counts are the public count.
    const docs = await toolJson<DocumentsJson>(bob, 'list_documents');
    expect(docs.documents.map((doc) => doc.doc_id).sort()).toEqual(PUBLIC_DOC_IDS);
    const listed = await bob.listResources();
    expect(listed.resources.map((resource) => resource.name).sort()).toEqual(PUBLIC_DOC_IDS);
    // list_tables: not the payroll table, not its columns.
    const tables = await toolJson<TablesJson>(bob, 'list_tables');
    expect(tables.tables.map((table) => table.doc_id)).toEqual(['data/budget.csv']);
    expectNoRestrictedContent(tables);

    // search: words only the restricted document has find nothing, not even a count of what was withheld.
    const onlySecret = await callTool(bob, 'search', { query: 'Halcyon zebrafinch', top_k: 50 });
    expect((onlySecret.structuredContent as SearchJson).results).toEqual([]);
    expect(onlySecret.content.filter((part) => part.type !== 'text')).toEqual([]);
    const broad = await callTool(bob, 'search', {
      query: 'Project Nightjar acquires Halcyon Robotics closing date notice',
      top_k: 50,
    });
    const hits = (broad.structuredContent as SearchJson).results;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => !hit.doc_id.startsWith('secret/'))).toBe(true);
    // (The query itself is echoed: only what came back is checked.)
    expectNoRestrictedContent([hits, broad.content.slice(1)]);

    // ask, with each agent.
    for (const agent of ['rag', 'react', 'controllable']) {
      const asked = await callTool(bob, 'ask', {
        question: 'What does Project Nightjar acquire, and for how much?',
        agent,
      });
      expect(asked.isError, textOf(asked)).toBeFalsy();
      expectNoRestrictedContent(asked);
      expect(
        (asked.structuredContent as AskJson).citations.every((citation) => !citation.doc_id.startsWith('secret/')),
      ).toBe(true);
    }

    // table_query: the payroll table (its name from alice) is refused exactly as a table that does not exist.
    const payroll = (await toolJson<TablesJson>(alice, 'list_tables')).tables.find(
      (table) => table.doc_id === 'secret/payroll.csv',
    );
    expect(payroll).toBeDefined();
    const secretName = payroll?.sql_name ?? '';
    const missingName = `${secretName}_gone`;
    const denied = await callTool(bob, 'table_query', { sql: `SELECT * FROM ${secretName}` });
    const missing = await callTool(bob, 'table_query', { sql: `SELECT * FROM ${missingName}` });
    expect(denied.isError).toBe(true);
    expectNoRestrictedContent(denied);
    expect(textOf(denied).replaceAll(secretName, '<table>')).toBe(textOf(missing).replaceAll(missingName, '<table>'));

    // resources/read of its ids reads exactly as ids that do not exist.
    for (const [kind, id, absent] of [
      ['documents', 'secret/nightjar.md', 'secret/absent.md'],
      ['chunks', 'secret/nightjar.md#0', 'secret/absent.md#0'],
      ['chunks', 'secret/payroll.csv#0', 'secret/absent.csv#0'],
    ] as const) {
      const denial = await failureOf(bob.readResource({ uri: `evident://${kind}/${encodeURIComponent(id)}` }), id);
      expect(denial).toBe(
        await failureOf(bob.readResource({ uri: `evident://${kind}/${encodeURIComponent(absent)}` }), absent),
      );
      expect(denial).toMatch(/not found/);
    }
    // An id that is not one well-formed segment is not found either (not a different error).
    expect(await failureOf(bob.readResource({ uri: 'evident://documents/%E0%A4%A' }), '%E0%A4%A')).toMatch(
      /^MCP error -32002: Resource evident:\/\/documents\/<id> not found$/,
    );

    // the prompt: its evidence is what bob may read; a question over the limit is refused by name.
    await expect(
      bob.getPrompt({ name: 'cited_answer', arguments: { question: 'why '.repeat(5_000) } }),
    ).rejects.toThrow(/question.*characters.*\(input_too_large\)/s);
    const prompt = await bob.getPrompt({
      name: 'cited_answer',
      arguments: { question: 'What does Project Nightjar acquire?' },
    });
    expectNoRestrictedContent(prompt);
    expect(everything(prompt)).not.toContain('[doc_id: secret/');
  });
}

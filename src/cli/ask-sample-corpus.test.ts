import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const corpus = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'samples/corpus');

interface AskJson {
  answer: string;
  answerable: boolean;
  status: string;
  citations: { doc_id: string; quote: string }[];
}

let dir: string;
let db: string;
const ask = async (question: string, ...flags: string[]): Promise<AskJson> => {
  const run = await runCli(['--db', db, 'ask', question, '--json', ...flags]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as AskJson;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-ask-corpus-'));
  db = join(dir, 'store.db');
  expect((await runCli(['--db', db, 'users', 'add', 'erin', '--groups', 'finance'])).code).toBe(0);
  expect((await runCli(['--db', db, 'ingest', corpus])).code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the offline rag agent on the sample corpus', () => {
  it.each([
    ['What is the nightly hotel limit in London?', 'policies/expenses.md', '$320'],
    ['For how long are failed webhook deliveries retried?', 'api/webhooks.html', '72 hours'],
    ['员工每年有几天年假？', 'zh/employee-handbook.md', '十五天'],
  ])('answers %s with a cited quote that holds the answer', async (question, docId, expected) => {
    const result = await ask(question);
    expect(result).toMatchObject({ answerable: true, status: 'answered' });
    expect(result.answer).toContain(expected);
    const citing = result.citations.filter((c) => c.quote.includes(expected));
    expect(citing.length).toBeGreaterThan(0);
    if (docId) expect(citing.map((c) => c.doc_id)).toContain(docId);
  });

  // Known regression of the fitted reader (issue 13): it answers with the Orders API's overview sentence, not its
  // rate limit; `it.fails` so the fix shows up as this test starting to pass.
  it.fails('answers What is the rate limit of the Orders API? with a cited quote that holds the answer', async () => {
    const result = await ask('What is the rate limit of the Orders API?');
    expect(result.answer).toContain('600 requests per minute');
  });

  it.each([
    ['员工的退休金是多少？'],
    ['What is the termination fee of CT-2023-0077?'],
    ['Who is the CEO of Northwind Logistics?'],
  ])('refuses %s: the topic is there, the answer is not', async (question) => {
    const result = await ask(question);
    expect(result).toMatchObject({ answerable: false, status: 'refused', citations: [] });
    expect(result.answer).toMatch(/^I don't know based on the current evidence/);
  });

  it('answers from a document the asker may see through its sidecar ACL only', async () => {
    const asErin = await ask('How many AAPL shares does the treasury hold?', '--as', 'erin');
    expect(asErin.answer).toContain('1,200');
    expect(asErin.citations.map((c) => c.doc_id)).toContain('finance/market-notes.txt');
  });
});

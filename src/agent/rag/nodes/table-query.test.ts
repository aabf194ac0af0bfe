import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { RecordingChatModel, type RecordedCall } from '../../../testing/recording-chat-model.ts';
import { oneNeed, routeTo } from '../../../testing/rag-model-script.ts';
import { openAgent, type AgentClient } from '../../../testing/agent-client.ts';

const CSV = resolve(import.meta.dirname, '../../../../samples/corpus/finance/orders-q1.csv');
const BOB: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
const FIONA: Principal = { id: 'fiona', groups: ['finance'], roles: ['member'] };
const QUESTION = 'What is the total order_total_usd of shipped orders?';

const root = mkdtempSync(join(tmpdir(), 'evident-table-answer-'));
let evident: Evident;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  expect(await evident.ingestor.ingest([CSV])).toMatchObject({ added: 1, failed: 0 });
  // A table only the finance group may see: its name and columns must never reach anyone else's prompt.
  const salaries = join(root, 'salaries.csv');
  writeFileSync(salaries, 'employee,salary_usd\nAda,181000\nGrace,176500\n');
  expect(await evident.ingestor.ingest([salaries], { acl: ['group:finance'] })).toMatchObject({ added: 1, failed: 0 });
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

/** The orders table's SQL name, read from the prompt the way a model would. */
const ordersTable = (call: RecordedCall): string =>
  /^(\S+) \(\d+ rows, from [^)]*orders-q1\.csv\)/m.exec(call.prompt)?.[1] ?? 'missing';

describe('table_query with a chat model writing the SQL', () => {
  it('runs the model’s SQL and answers from its result', async () => {
    // By hand from the CSV, shipped rows: 1250.50 + 980.00 + 2200.00 + 615.20 + 3120.00 + 540.00 + 2750.40 + 1330.00.
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('table'),
      (call) => ({
        sql: `SELECT ROUND(SUM("order_total_usd"), 2) AS shipped_total FROM ${ordersTable(call)} WHERE "status" = 'shipped'`,
      }),
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({ question: QUESTION, principal: BOB });
      expect(run.status).toBe('answered');
      expect(run.answer?.answer).toContain('12786.1');
      expect(run.tool_calls).toEqual([
        expect.objectContaining({
          name: 'table_query',
          ok: true,
          arguments: { sql: expect.stringContaining('ROUND(SUM("order_total_usd"), 2) AS shipped_total') },
        }),
      ]);
      expect(model.calls.map((call) => call.schemaName)).toEqual(['sub_questions', 'route', 'table_sql']);
      expect(model.prompts[2]).toContain(QUESTION);
      expect(run.steps.map((step) => step.node)).not.toContain('retrieve');
    } finally {
      await agent.close();
    }
  });

  it('feeds a rejected query’s error back and runs the corrected one', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('table'),
      { sql: 'DELETE FROM documents' },
      (call) => ({ sql: `SELECT COUNT(*) FROM ${ordersTable(call)} WHERE "status" = 'shipped'` }),
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({ question: QUESTION, principal: BOB });
      expect(run.tool_calls.map((call) => call.ok)).toEqual([false, true]);
      const rejection = run.tool_calls[0]?.result_summary ?? '';
      expect(rejection.length).toBeGreaterThan(0);
      expect(model.calls[3]?.prompt).toContain(rejection);
      expect(model.calls[3]?.prompt).toContain('DELETE FROM documents');
      expect(run.answer?.answer).toContain(' is 8.');
      expect(run.steps.find((step) => step.node === 'table_query')?.summary).toMatch(/attempt 2/);
    } finally {
      await agent.close();
    }
  });

  it('falls back to the offline strategy after two failed queries, recording all three calls', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('table'),
      { sql: 'SELECT nope FROM nowhere' },
      { sql: 'SELECT * FROM documents' },
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({ question: QUESTION, principal: BOB });
      expect(run.tool_calls.map((call) => call.ok)).toEqual([false, false, true]);
      expect(run.tool_calls[2]?.arguments.sql).toMatch(/^SELECT SUM\("order_total_usd"\)/);
      expect(run.answer?.answer).toContain('12786.1');
      expect(run.answer?.answer).toContain('offline strategy');
    } finally {
      await agent.close();
    }
  });

  it('shows the model only the tables the principal may see', async () => {
    const sql = (call: RecordedCall) => ({
      sql: `SELECT SUM("order_total_usd") FROM ${ordersTable(call)} WHERE "status" = 'shipped'`,
    });
    const bobModel = new RecordingChatModel([oneNeed, routeTo('table'), sql]);
    const fionaModel = new RecordingChatModel([oneNeed, routeTo('table'), sql]);
    const bobAgent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model: bobModel } });
    const fionaAgent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model: fionaModel } });
    try {
      expect((await bobAgent.ask({ question: QUESTION, principal: BOB })).status).toBe('answered');
      expect((await fionaAgent.ask({ question: QUESTION, principal: FIONA })).status).toBe('answered');
      // The routing prompt and the SQL prompt both describe the tables: only those the principal may see.
      expect(bobModel.prompts[2]).toContain('orders-q1.csv');
      expect(bobModel.prompts[1]).toContain('orders-q1.csv');
      expect(bobModel.prompts.join('\n')).not.toMatch(/salar/i);
      // The finance member's prompts list it, so the assertion above could fail.
      expect(fionaModel.prompts[1]).toContain('"salary_usd"');
      expect(fionaModel.prompts[2]).toContain('"salary_usd"');
    } finally {
      await bobAgent.close();
      await fionaAgent.close();
    }
  });
});

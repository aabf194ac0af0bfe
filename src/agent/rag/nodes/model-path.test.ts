import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import { REFUSAL_TEXT } from '../../../domain/answer.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { RecordingChatModel, type RecordedCall } from '../../../testing/recording-chat-model.ts';
import {
  chunkIdsIn,
  extractAndJudge,
  needs,
  oneNeed,
  passageWith,
  routeTo,
} from '../../../testing/rag-model-script.ts';
import { openAgent } from '../../../testing/agent-client.ts';
import { tableQuestionToSql } from '../../table-sql/table-question-to-sql.ts';
import { loadTableSchemas } from '../../table-sql/table-schemas.ts';
import { needsRewrite } from '../../core/nodes/rewrite.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const FEE = 'What is the termination fee of CT-2024-0193?';

let dir: string;
let evident: Evident;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-rag-model-'));
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') } }));
  await evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
  expect(await evident.ingestor.ingest([join(repo, 'samples/corpus')])).toMatchObject({ failed: 0 });
});

afterAll(async () => {
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

const alice = () => evident.principalFor('alice');

/** Runs one question through rag with a recording model and closes the runtime. */
async function ask(
  model: RecordingChatModel,
  question: string,
  history: { role: 'user' | 'assistant'; content: string }[] = [],
) {
  const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
  try {
    return await agent.ask({ question, principal: await alice(), history });
  } finally {
    await agent.close();
  }
}

const callOf = (model: RecordingChatModel, schemaName: string): RecordedCall | undefined =>
  model.calls.find((call) => call.schemaName === schemaName);

/** A generate reply citing the passage that contains `words`, quoting them (or a chunk id / quote of the test's choosing). */
const answerCiting =
  (
    words: string,
    citations: (passage: { chunk_id: string; doc_id: string }) => { chunk_id: string; doc_id: string; quote: string }[],
  ) =>
  (call: RecordedCall) => {
    const passage = passageWith(call, words) ?? { chunk_id: 'missing', doc_id: 'missing' };
    return {
      answer: `The termination fee is ${words}.`,
      answerable: true,
      confidence: 0.9,
      citations: citations(passage).map((citation) => ({ ...citation, source: 'as the model wrote it' })),
      missing_information: [],
    };
  };

describe('rag model path: extract, judge sufficiency, answer', () => {
  it('shows every evidence passage under its chunk id, and answers from the sentences the model extracted by id', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      extractAndJudge('$48,000', 0.85),
      answerCiting('$48,000', (passage) => [
        { chunk_id: passage.chunk_id, doc_id: passage.doc_id, quote: 'a termination fee of $48,000' },
      ]),
    ]);
    const run = await ask(model, FEE);
    expect(run.status).toBe('answered');
    const judge = callOf(model, 'answerability');
    const generate = callOf(model, 'answer');
    // Both evidence prompts label each retrieved chunk with its id, in the order of the evidence.
    expect(chunkIdsIn(judge as RecordedCall)).toEqual(run.evidence_ids);
    expect(chunkIdsIn(generate as RecordedCall)).toEqual(run.evidence_ids);
    expect(judge?.prompt).toMatch(/EXTRACT[\s\S]*JUDGE[\s\S]*sufficiency/);
    // The extracted sentence reaches the answer step under its chunk id.
    const feeChunk = passageWith(judge as RecordedCall, '$48,000')?.chunk_id ?? '';
    expect(feeChunk).toMatch(/^contracts\/ct-2024-0193\.md#/);
    expect(generate?.prompt).toMatch(
      new RegExp(`Support:[^\\n]*\\n- \\[chunk_id: ${feeChunk.replace(/[.#/]/g, '\\$&')}\\] "[^"\\n]*\\$48,000`),
    );
    const step = run.steps.find((s) => s.node === 'check_answerability');
    expect(step?.summary).toMatch(/^sufficient \(0\.85, 1 supporting sentence/);
    expect(run.answer?.citations).toEqual([
      expect.objectContaining({ chunk_id: feeChunk, doc_id: 'contracts/ct-2024-0193.md' }),
    ]);
  });

  it('refuses below the shared threshold with the model’s missing information, without asking for an answer', async () => {
    const missing = ['the termination fee of CT-2023-0077 (the evidence states its monthly fee only)'];
    const model = new RecordingChatModel([oneNeed, routeTo('retrieve'), extractAndJudge('monthly', 0.3, missing)]);
    const run = await ask(model, 'What is the termination fee of CT-2023-0077?');
    expect(run.status).toBe('refused');
    expect(run.answer?.answer).toContain(REFUSAL_TEXT);
    expect(run.answer?.missing_information).toEqual(missing);
    expect(model.calls.map((call) => call.schemaName)).toEqual(['sub_questions', 'route', 'answerability']);
  });

  it('does not take "sufficient" from a model whose extracted sentences are not in the evidence', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      (call: RecordedCall) => ({
        supporting: [
          { chunk_id: chunkIdsIn(call)[0] ?? 'x', sentence: 'The termination fee is $1,000,000, payable at once.' },
        ],
        sufficiency: 0.95,
        reasons: ['the contract states it'],
        missing_information: [],
      }),
    ]);
    const run = await ask(model, FEE);
    expect(run.status).toBe('refused');
    expect(run.steps.find((s) => s.node === 'check_answerability')?.summary).toMatch(
      /insufficient \(0\.49, 0 supporting[\s\S]*occurs in the evidence/,
    );
    expect(model.calls).toHaveLength(3);
  });

  it('re-points a citation of an unknown id to the chunk holding its quote, and drops a quote the chunk does not hold', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      extractAndJudge('$48,000', 0.9),
      answerCiting('$48,000', (passage) => [
        // The model named the document instead of the chunk; the quote identifies the chunk.
        {
          chunk_id: 'contracts/ct-2024-0193.md',
          doc_id: 'ct-2024-0193',
          quote: 'triggers a termination fee of $48,000',
        },
        // The right chunk, but words it does not contain.
        {
          chunk_id: passage.chunk_id,
          doc_id: passage.doc_id,
          quote: 'a termination fee of $99,000 payable in advance',
        },
      ]),
    ]);
    const run = await ask(model, FEE);
    expect(run.status).toBe('answered');
    expect(run.answer?.citations).toHaveLength(1);
    expect(run.answer?.citations[0]).toMatchObject({
      doc_id: 'contracts/ct-2024-0193.md',
      quote: 'triggers a termination fee of $48,000',
    });
    expect(run.evidence_ids).toContain(run.answer?.citations[0]?.chunk_id);
    expect(run.steps.find((s) => s.node === 'citation_check')?.summary).toMatch(/1 kept, 1 dropped.*quote not found/);
  });
});

describe('rag model path: the model decides, no pattern gate in front of it', () => {
  it('rewrites a Chinese follow-up (no English pronoun, no identifier) with the model, and retrieves with its rewrite', async () => {
    const history = [
      { role: 'user' as const, content: '供应商合同 CT-2024-0201 的包装材料单价是多少？' },
      { role: 'assistant' as const, content: '包装材料单价为每件人民币 3.60 元。' },
    ];
    const followUp = '那违约金呢？';
    // The offline gate would have let this pass unrewritten: only the model can see that it refers back.
    expect(needsRewrite(followUp, history)).toBe(false);
    const standalone = '供应商合同 CT-2024-0201 的违约金是多少？';
    const model = new RecordingChatModel([
      { standalone_question: standalone },
      oneNeed,
      routeTo('retrieve'),
      extractAndJudge('违约金', 0.2, ['违约金的金额']),
    ]);
    const run = await ask(model, followUp, history);
    const rewrite = model.calls[0];
    expect(rewrite?.schemaName).toBe('standalone_question');
    expect(rewrite?.prompt).toContain('供应商合同 CT-2024-0201 的包装材料单价是多少？');
    expect(rewrite?.prompt).toContain(`Last question: ${followUp}`);
    expect(run.standalone_question).toBe(standalone);
    expect(callOf(model, 'sub_questions')?.prompt).toContain(standalone);
    expect(run.steps.find((s) => s.node === 'retrieve')?.summary).toContain(standalone);
  });

  it('uses the model’s decomposition of a question that lists nothing', async () => {
    const question = 'Which costs more to leave early, CT-2024-0193 or CT-2023-0077?'.replace(',', '');
    expect(question).not.toMatch(/,|\band\b/i);
    const subQuestions = [
      'What is the termination fee of CT-2024-0193?',
      'What is the termination fee of CT-2023-0077?',
    ];
    const model = new RecordingChatModel([
      needs(...subQuestions),
      routeTo('retrieve'),
      extractAndJudge('$48,000', 0.3, ['the termination fee of CT-2023-0077']),
    ]);
    const run = await ask(model, question);
    expect(model.calls[0]?.prompt).toContain(`Question: ${question}`);
    expect(run.sub_questions).toEqual(subQuestions);
    const retrieve = run.steps.find((s) => s.node === 'retrieve')?.summary ?? '';
    for (const sub of subQuestions) expect(retrieve).toContain(sub);
    // Both needs reach the judge, which names the one the evidence does not state.
    const judge = callOf(model, 'answerability')?.prompt ?? '';
    for (const sub of subQuestions) expect(judge).toContain(`- ${sub}`);
    expect(run.answer?.missing_information).toEqual(['the termination fee of CT-2023-0077']);
  });

  it('follows the model’s table routing both ways, against what the offline test would decide', async () => {
    const principal = await alice();
    const schemas = await loadTableSchemas(evident.store, principal);
    const aggregation = 'What is the total order_total_usd of shipped orders?';
    const paraphrase = 'How much money did the orders that went out bring in altogether?';
    // The offline strategy would send the first to the tables; the model sends it to retrieval.
    expect(tableQuestionToSql(aggregation, schemas)).toBeDefined();

    const toRetrieval = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve', 'the documents discuss orders'),
      extractAndJudge('shipped', 0.2, ['the shipped total']),
    ]);
    const retrieved = await ask(toRetrieval, aggregation);
    expect(callOf(toRetrieval, 'route')?.prompt).toMatch(/orders-q1\.csv[\s\S]*"order_total_usd"/);
    expect(retrieved.tool_calls).toEqual([]);
    expect(retrieved.steps.map((s) => s.node)).toContain('retrieve');
    expect(retrieved.steps.find((s) => s.node === 'route_question')?.summary).toBe(
      'retrieve (model): the documents discuss orders',
    );

    const ordersTable = (call: RecordedCall) =>
      /^(\S+) \(\d+ rows, from [^)]*orders-q1\.csv\)/m.exec(call.prompt)?.[1] ?? 'missing';
    const toTable = new RecordingChatModel([
      oneNeed,
      routeTo('table', 'a sum over the orders table'),
      (call: RecordedCall) => ({
        sql: `SELECT ROUND(SUM("order_total_usd"), 2) FROM ${ordersTable(call)} WHERE "status" = 'shipped'`,
      }),
    ]);
    const computed = await ask(toTable, paraphrase);
    expect(computed.steps.find((s) => s.node === 'route_question')?.summary).toBe(
      'table (model): a sum over the orders table',
    );
    expect(computed.status).toBe('answered');
    expect(computed.answer?.answer).toContain('12786.1');
    expect(computed.tool_calls).toEqual([expect.objectContaining({ name: 'table_query', ok: true })]);
    expect(computed.steps.map((s) => s.node)).not.toContain('retrieve');
  });
});

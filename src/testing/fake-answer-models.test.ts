import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';
import { createEvident } from '../evident.ts';
import { honestModel, overconfidentModel, passagesIn, questionOf, type Gold } from './fake-answer-models.ts';
import { FakeLlmServer, type Received } from './fake-llm-server.ts';

const EVIDENCE = [
  '[chunk_id: c1] [doc_id: guide.md] (Overview)',
  'The handbook covers travel. Meals are reimbursed up to $60 a day.',
  '',
  '[chunk_id: c2] [doc_id: bert.md]',
  'BERT is a language model. BERT-BASE has 12 layers and 768 hidden units.',
].join('\n');

/** A request of a structured step, as the OpenAI client sends it. */
const step = (schema: string, prompt: string): Received['body'] => ({
  model: 'fake',
  messages: [
    { role: 'system', content: 'Answer only from the evidence.' },
    { role: 'user', content: prompt },
  ],
  response_format: { type: 'json_schema', json_schema: { name: schema, schema: {} } },
});
const ask = (model: { respond: (body: Received['body']) => string | undefined }, schema: string, prompt: string) =>
  JSON.parse(model.respond(step(schema, prompt)) ?? 'null');

const LAYERS = 'How many layers does BERT-BASE have?';
/** Neither document answers it, though the travel policy is on its topic. */
const HOTEL_BUDGET = 'What is the hotel budget per night on business trips?';
const gold = new Map<string, Gold>([
  [LAYERS, { answerable: true, answers: ['12'] }],
  [HOTEL_BUDGET, { answerable: false }],
]);

describe('reading a prompt', () => {
  it('finds each passage under its header, up to the next header or the label after the evidence', () => {
    const passages = passagesIn(`Evidence:\n${EVIDENCE}\n\nSupport: none\n\nQuestion: ${LAYERS}`);
    expect(passages.map((p) => [p.id, p.docId])).toEqual([
      ['c1', 'guide.md'],
      ['c2', 'bert.md'],
    ]);
    expect(passages[1]?.text).toBe('BERT is a language model. BERT-BASE has 12 layers and 768 hidden units.');
    const items = passagesIn('Context:\n[id: i1] [chunk of a.md] (A)\nAlpha text.\n\n[id: i2] [quote of b.md]\nBeta.');
    expect(items.map((p) => [p.id, p.docId, p.text])).toEqual([
      ['i1', 'a.md', 'Alpha text.'],
      ['i2', 'b.md', 'Beta.'],
    ]);
  });

  it("takes the step's question, not a passage's line", () => {
    expect(questionOf(`Evidence:\n[chunk_id: x] [doc_id: faq.md]\nQuestion: in the FAQ?\n\nQuestion: ${LAYERS}`)).toBe(
      LAYERS,
    );
    expect(questionOf('Conversation:\nUser: hi\n\nLast question: And its size?')).toBe('And its size?');
    expect(questionOf('Task: find the fee\n\nContext:\n[id: i1] [chunk of a.md]\nQuestion: no')).toBe('find the fee');
  });
});

describe('the overconfident model', () => {
  it('judges the first passage sufficient and answers its first sentence, quoted exactly, whatever the question', () => {
    const model = overconfidentModel();
    const prompt = `Question: ${HOTEL_BUDGET}\n\nEvidence:\n${EVIDENCE}`;
    expect(ask(model, 'standalone_question', `Conversation:\nUser: x\n\nLast question: ${HOTEL_BUDGET}`)).toEqual({
      standalone_question: HOTEL_BUDGET,
    });
    expect(ask(model, 'sub_questions', `Question: ${HOTEL_BUDGET}`)).toEqual({ sub_questions: [HOTEL_BUDGET] });
    expect(ask(model, 'route', `Tables:\n-\n\nQuestion: ${HOTEL_BUDGET}`).route).toBe('retrieve');
    expect(ask(model, 'answerability', prompt)).toMatchObject({
      supporting: [{ chunk_id: 'c1', sentence: 'The handbook covers travel.' }],
      sufficiency: 0.95,
    });
    const answer = ask(model, 'answer', `Evidence:\n${EVIDENCE}\n\nQuestion: ${HOTEL_BUDGET}`);
    expect(answer).toEqual({
      answer: 'The handbook covers travel.',
      answerable: true,
      confidence: 0.95,
      citations: [{ chunk_id: 'c1', doc_id: 'guide.md', source: 'guide.md', quote: 'The handbook covers travel.' }],
      missing_information: [],
    });
    expect(EVIDENCE).toContain(answer.citations[0].quote);
    expect(model.proposalFor(HOTEL_BUDGET)).toMatchObject({ judged: 'sufficient', final: 'answered' });
    expect(model.proposedAnswer(HOTEL_BUDGET)).toBe(true);
    expect(model.unknownSteps.size).toBe(0);
  });

  it("answers controllable's steps by node name and react in the text protocol", () => {
    const model = overconfidentModel();
    const context = 'Context:\n[id: i1] [chunk of guide.md]\nMeals are reimbursed up to $60 a day. Hotels too.';
    expect(ask(model, 'plan', `Question: ${HOTEL_BUDGET}`)).toEqual({ plan: [HOTEL_BUDGET] });
    expect(ask(model, 'task_handler', `Task: ${HOTEL_BUDGET}\n\nQuestion: ${HOTEL_BUDGET}`)).toEqual({
      tool: 'retrieve_chunks',
      query: HOTEL_BUDGET,
    });
    expect(ask(model, 'keep_relevant', `Query: ${HOTEL_BUDGET}\n\nItems:\n${context.slice(9)}`)).toEqual({
      relevant_ids: ['i1'],
    });
    expect(ask(model, 'answer_from_context', `Task: ${HOTEL_BUDGET}\n\n${context}`)).toEqual({
      supporting: [{ id: 'i1', sentence: 'Meals are reimbursed up to $60 a day.' }],
      sufficiency: 0.95,
      answer: 'Meals are reimbursed up to $60 a day.',
      missing_information: [],
    });
    expect(ask(model, 'replan', `Question: ${HOTEL_BUDGET}\n\nDone:\n1. x\n\nLeft:\n(none)`)).toEqual({
      done: true,
      plan: [],
    });
    const first = model.respond({
      model: 'fake',
      messages: [
        { role: 'system', content: 'Tools …' },
        { role: 'user', content: `Question: ${HOTEL_BUDGET}` },
      ],
    });
    expect(first).toContain('Action: knowledge_base');
    expect(first).toContain(JSON.stringify({ query: HOTEL_BUDGET }));
    const final = model.respond({
      model: 'fake',
      messages: [
        { role: 'system', content: 'Tools …' },
        { role: 'user', content: `Question: ${HOTEL_BUDGET}` },
        { role: 'assistant', content: first ?? '' },
        { role: 'tool', content: `Searched 1 queries: 2 passages.\n\n${EVIDENCE}` },
      ],
    });
    const json = JSON.parse(/Final Answer: (.+)$/m.exec(final ?? '')?.[1] ?? 'null');
    expect(json).toMatchObject({ answerable: true, sufficiency: 0.95, citations: [{ chunk_id: 'c1' }] });
  });
});

describe('the honest model', () => {
  it('answers with the gold value, citing the sentence of the passage that states it', () => {
    const model = honestModel(gold);
    expect(ask(model, 'answerability', `Question: ${LAYERS}\n\nEvidence:\n${EVIDENCE}`)).toMatchObject({
      supporting: [{ chunk_id: 'c2', sentence: 'BERT-BASE has 12 layers and 768 hidden units.' }],
      sufficiency: 0.95,
    });
    expect(ask(model, 'answer', `Evidence:\n${EVIDENCE}\n\nQuestion: ${LAYERS}`)).toEqual({
      answer: '12',
      answerable: true,
      confidence: 0.9,
      citations: [
        {
          chunk_id: 'c2',
          doc_id: 'bert.md',
          source: 'bert.md',
          quote: 'BERT-BASE has 12 layers and 768 hidden units.',
        },
      ],
      missing_information: [],
    });
    expect(model.proposedAnswer(LAYERS)).toBe(true);
  });

  it('writes gold values one sentence states together as that sentence writes them', () => {
    const when = '2022年G20峰会的时间？';
    const model = honestModel(new Map([[when, { answerable: true, answers: ['11月15日', '16日'], docs: ['g20.md'] }]]));
    const evidence = '[chunk_id: g] [doc_id: g20.md]\n2022年G20峰会于2022年11月15日至16日在印尼巴厘岛举行。';
    expect(ask(model, 'answer', `Evidence:\n${evidence}\n\nQuestion: ${when}`).answer).toBe('11月15日至16日');
  });

  it('cites the sentence stating the value as a whole number, not one holding it inside another', () => {
    const model = honestModel(gold);
    const evidence = '[chunk_id: y] [doc_id: bert.md]\nBERT was released in 2012. Its base model has 12 layers.';
    expect(ask(model, 'answer', `Evidence:\n${evidence}\n\nQuestion: ${LAYERS}`).citations[0].quote).toBe(
      'Its base model has 12 layers.',
    );
  });

  it('cites the sentence about what the question asks, from a gold document first, not the first holding the value', () => {
    const hidden = 'What is the hidden size of BERT-LARGE?';
    const model = honestModel(new Map([[hidden, { answerable: true, answers: ['1024'], docs: ['bert.md'] }]]));
    const evidence = [
      '[chunk_id: t] [doc_id: transformer.md]',
      'The big Transformer is (L=6, H=1024, A=16).',
      '',
      '[chunk_id: b] [doc_id: bert.md]',
      'Its base uses H=1024 too. We denote the hidden size as H: BERT-LARGE has H=1024.',
    ].join('\n');
    expect(ask(model, 'answer', `Evidence:\n${evidence}\n\nQuestion: ${hidden}`).citations).toEqual([
      expect.objectContaining({ chunk_id: 'b', quote: 'We denote the hidden size as H: BERT-LARGE has H=1024.' }),
    ]);
  });

  it("cites each hop of a multi-hop answer: the gold passage naming what the value's sentence does not", () => {
    const currency = 'What currency predated the Euro in the country Signmark is from?';
    const model = honestModel(
      new Map([[currency, { answerable: true, answers: ['markka'], docs: ['signmark.md', 'finland.md'] }]]),
    );
    const evidence = [
      '[chunk_id: f] [doc_id: finland.md]',
      'The markka was the currency of Finland before the euro.',
      '',
      '[chunk_id: s] [doc_id: signmark.md]',
      'Signmark is a rapper. Signmark was born in Finland.',
      '',
      '[chunk_id: o] [doc_id: other.md]',
      'Signmark toured Europe.',
    ].join('\n');
    const { citations } = ask(model, 'answer', `Evidence:\n${evidence}\n\nQuestion: ${currency}`);
    expect(citations.map((c: { chunk_id: string }) => c.chunk_id)).toEqual(['f', 's']);
  });

  it('refuses an unanswerable question, and one whose gold no passage shown states', () => {
    const model = honestModel(gold);
    const refused = ask(model, 'answer', `Evidence:\n${EVIDENCE}\n\nQuestion: ${HOTEL_BUDGET}`);
    expect(refused).toMatchObject({ answerable: false, confidence: 0, citations: [] });
    expect(refused.missing_information).toHaveLength(1);
    const judged = ask(model, 'answerability', `Question: ${LAYERS}\n\nEvidence:\n${EVIDENCE.split('\n\n')[0]}`);
    expect(judged).toMatchObject({ supporting: [], sufficiency: 0 });
    expect(
      ask(model, 'answer_from_context', `Task: ${LAYERS}\n\nContext:\n[id: i1] [chunk of x.md]\nNothing.`),
    ).toEqual(expect.objectContaining({ supporting: [], sufficiency: 0, answer: '' }));
    expect(model.proposedAnswer(HOTEL_BUDGET)).toBe(false);
    expect(model.proposedAnswer(LAYERS)).toBe(false);
  });

  it('answers from a gold document when the gold is documents, not values', () => {
    const model = honestModel(new Map([['What does BERT stand for?', { answerable: true, docs: ['bert.md'] }]]));
    const answer = ask(model, 'answer', `Evidence:\n${EVIDENCE}\n\nQuestion: What does BERT stand for?`);
    expect(answer).toMatchObject({ answerable: true, citations: [{ chunk_id: 'c2', doc_id: 'bert.md' }] });
  });
});

describe('the fake models behind the OpenAI-compatible fake server, on a real store', () => {
  const server = new FakeLlmServer();
  const dir = mkdtempSync(join(tmpdir(), 'evident-fake-answer-models-'));
  const anyone: Principal = { id: 'anyone', groups: [], roles: ['member'] };
  let evident: Awaited<ReturnType<typeof createEvident>>;

  beforeAll(async () => {
    await server.start();
    const corpus = join(dir, 'corpus');
    rmSync(corpus, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(corpus);
    writeFileSync(
      join(corpus, 'bert.md'),
      '# BERT\n\nBERT is a language representation model. BERT-BASE has 12 layers and 768 hidden units.\n',
    );
    writeFileSync(
      join(corpus, 'travel.md'),
      '# Travel policy\n\nMeals on business trips are reimbursed up to $60 a day. Hotels are booked through the travel desk.\n',
    );
    evident = await createEvident(
      loadConfig({
        flags: {
          db: join(dir, 'evident.db'),
          llm: 'openai:fake-answer-model',
          llmBaseUrl: `${server.url}/v1`,
          llmApiKey: 'fake-key',
        },
        env: {},
      }),
    );
    expect((await evident.ingestor.ingest([corpus])).failed).toBe(0);
  });

  afterAll(async () => {
    await evident?.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (question: string, agent = 'rag') =>
    (await evident.agents()).runs.run({
      agent,
      threadId: randomUUID(),
      principal: anyone,
      action: { kind: 'ask', question, history: [] },
      createThread: true,
    });

  it.each(['rag', 'controllable', 'react'])("delivers the honest model's answer, cited (%s)", async (agent) => {
    const model = honestModel(gold);
    server.respond = model.respond;
    const result = await run(LAYERS, agent);
    expect(model.proposalFor(LAYERS)).toMatchObject({ final: 'answered', answer: '12' });
    expect(result.answer).toMatchObject({ answerable: true });
    expect(result.answer?.answer).toContain('12');
    expect(result.answer?.citations.length).toBeGreaterThan(0);
    expect(result.answer?.citations[0]?.quote).toContain('12 layers');
    expect(model.unknownSteps.size).toBe(0);
  });

  it('lets the overconfident model answer a question the documents do not answer, and the evidence gate refuse it', async () => {
    const model = overconfidentModel();
    server.respond = model.respond;
    const result = await run(HOTEL_BUDGET);
    expect(model.proposedAnswer(HOTEL_BUDGET)).toBe(true);
    expect(model.proposalFor(HOTEL_BUDGET)?.judged).toBe('sufficient');
    expect(result.status).toBe('refused');
    expect(result.answer?.missing_information.length).toBeGreaterThan(0);
    expect(model.unknownSteps.size).toBe(0);
  });
});

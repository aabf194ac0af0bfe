import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../config/index.ts';
import type { Principal } from '../domain/index.ts';
import { createEvident } from '../evident.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { RecordingChatModel } from '../testing/recording-chat-model.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../testing/otlp-receiver.ts';
import { openSampleCorpusStore, SAMPLE_CORPUS, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { scriptedRagAnswer } from '../testing/scripted-rag-model.ts';
import { tracingActive } from './start-tracing.ts';

const QUESTION = 'What is the termination fee of CT-2024-0193?';
const alice: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };

let corpus: SampleCorpusStore;
let receiver: OtlpReceiver;
/** Every line of the sample corpus long enough to be the corpus's own text (not a word a span name could hold). */
let corpusLines: string[];
const llm = new FakeLlmServer();

beforeAll(async () => {
  // Hermetic: tracing here is only what each test turns on through `createEvident`'s env, never the machine's.
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) delete process.env[name];
  [corpus, receiver] = await Promise.all([
    openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]),
    startOtlpReceiver(),
    llm.start(),
  ]);
  llm.respond = scriptedRagAnswer;
  corpusLines = await linesOf(SAMPLE_CORPUS);
});

afterAll(async () => {
  await Promise.all([corpus?.close(), receiver?.close(), llm.stop()]);
});

async function linesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.json'));
  const texts = await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')));
  const lines = texts.flatMap((text) =>
    text.split(/\r?\n/).map((line) =>
      line
        .replace(/<[^>]+>/g, ' ')
        .replace(/^[#>*\-|\s]+/, '')
        .trim(),
    ),
  );
  return [...new Set(lines.filter((line) => line.length >= 24))];
}

/** One Evident on the sample store whose spans go to the receiver; runs `work`, closes it, and returns what arrived. */
async function traced(
  flags: ConfigInput,
  work: (evident: Awaited<ReturnType<typeof createEvident>>) => Promise<void>,
): Promise<ReceivedSpan[]> {
  receiver.clear();
  const evident = await createEvident(loadConfig({ flags: { db: corpus.db, ...flags }, env: {} }), {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'evident-trace-test' },
  });
  expect(tracingActive()).toBe(true);
  try {
    await work(evident);
  } finally {
    // Close flushes: the batch is sent before close resolves, without waiting for the exporter's timer.
    await evident.close();
  }
  expect(tracingActive()).toBe(false);
  return receiver.spans();
}

const ask = async (evident: Awaited<ReturnType<typeof createEvident>>, question = QUESTION) =>
  (await evident.agents()).runs.run({
    agent: 'rag',
    threadId: randomUUID(),
    principal: alice,
    action: { kind: 'ask', question, history: [] },
    createThread: true,
  });

const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReceivedSpan;
};
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

/** Every attribute value and span name as one text, decoded (so JSON escaping cannot hide a quote). */
const exportedText = (spans: ReceivedSpan[]) =>
  spans.flatMap((span) => [span.name, ...Object.values(span.attributes).flat().map(String)]).join('\n');

function expectNoCorpusText(spans: ReceivedSpan[], also: string[] = []) {
  const text = exportedText(spans);
  const raw = receiver.bodies.join('\n');
  expect(corpusLines.length).toBeGreaterThan(50);
  for (const line of [...corpusLines, ...also]) {
    expect(text.includes(line), `exported span text holds "${line}"`).toBe(false);
    expect(raw.includes(line), `an export request holds "${line}"`).toBe(false);
  }
}

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  it('exports an offline rag run as run → node → search → retrieval stage spans, with counts and no text', async () => {
    let runId = '';
    let threadId = '';
    let answer = '';
    const spans = await traced({}, async (evident) => {
      const result = await ask(evident);
      expect(result.status).toBe('answered');
      ({ run_id: runId, thread_id: threadId } = result);
      answer = result.answer?.answer ?? '';
    });
    expect(answer).toContain('$48,000');
    expect(new Set(spans.map((span) => span.serviceName))).toEqual(new Set(['evident-trace-test']));

    const run = one(spans, 'run rag');
    expect(run.parentSpanId).toBe('');
    expect(run.attributes).toMatchObject({
      'evident.agent': 'rag',
      'evident.run_id': runId,
      'evident.thread_id': threadId,
      'evident.run.status': 'answered',
      'evident.run.attempt': 1,
    });
    expect(run.attributes['evident.run.event_count']).toBeGreaterThan(5);
    expect(run.attributes).not.toHaveProperty('evident.question');
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([run.traceId]));

    const nodes = childrenOf(spans, run);
    expect(nodes.map((span) => span.name)).toEqual(
      expect.arrayContaining([
        'node load_memory',
        'node rewrite',
        'node retrieve',
        'node merge_rerank',
        'node generate',
        'node finalize',
      ]),
    );
    for (const node of nodes) {
      expect(node.name).toMatch(/^node \w+$/);
      expect(node.attributes).toMatchObject({
        'evident.agent': 'rag',
        'evident.node': node.name.slice('node '.length),
      });
      expect(node.attributes['evident.duration_ms']).toBeGreaterThanOrEqual(0);
    }
    // A node reports what it found as counts: the rerank keeps evidence, the answer has citations.
    expect(nodes.some((node) => Number(node.attributes['evident.node.evidence_count']) > 0)).toBe(true);
    expect(nodes.some((node) => Number(node.attributes['evident.node.citations_count']) > 0)).toBe(true);

    const retrieve = one(spans, 'node retrieve');
    const searches = childrenOf(spans, retrieve).filter((span) => span.name === 'search');
    expect(searches.length).toBeGreaterThan(0);
    for (const search of searches) {
      expect(search.attributes).toMatchObject({ 'evident.retrieval.channels': ['bm25'] });
      expect(search.attributes['evident.retrieval.top_k']).toBeGreaterThan(0);
      expect(search.attributes).not.toHaveProperty('evident.question');
      const stages = childrenOf(spans, search);
      expect(stages.map((span) => span.name)).toEqual([
        'retrieval bm25',
        'retrieval fuse',
        'retrieval fetch',
        'retrieval dedupe',
      ]);
      for (const stage of stages) expect(typeof stage.attributes['evident.retrieval.result_count']).toBe('number');
    }
    expect(
      searches.some((search) => Number(childrenOf(spans, search)[0]?.attributes['evident.retrieval.result_count']) > 0),
    ).toBe(true);

    // Neither the corpus, nor the answer, nor the question left the process.
    expectNoCorpusText(spans, [answer, QUESTION]);
  });

  it("nests the nodes of every agent under its run span, through LangGraph's execution", async () => {
    const spans = await traced({}, async (evident) => {
      const runs = (await evident.agents()).runs;
      for (const agent of ['react', 'controllable']) {
        await runs.run({
          agent,
          threadId: randomUUID(),
          principal: alice,
          action: { kind: 'ask', question: QUESTION, history: [] },
          createThread: true,
        });
      }
    });
    for (const agent of ['react', 'controllable']) {
      const run = one(spans, `run ${agent}`);
      const nodes = childrenOf(spans, run);
      expect(nodes.length).toBeGreaterThan(3);
      for (const node of nodes)
        expect(node.attributes).toMatchObject({
          'evident.agent': agent,
          'evident.node': node.name.slice('node '.length),
        });
      // Every span of the run is the run's or below it: none lost its parent on the way.
      const ofRun = spans.filter((span) => span.traceId === run.traceId);
      const ids = new Set(ofRun.map((span) => span.spanId));
      for (const span of ofRun) if (span !== run) expect(ids.has(span.parentSpanId)).toBe(true);
      expect(ofRun.some((span) => span.name === 'search')).toBe(true);
    }
    expectNoCorpusText(spans, [QUESTION]);
  });

  it('exports a search of its own as a root span with a span per stage, the vector channel and the reranker included', async () => {
    const spans = await traced({ embedder: 'offline', reranker: 'offline' }, async (evident) => {
      const found = await evident.search.search('termination fee', alice, { channels: ['bm25', 'vector'], topK: 3 });
      expect(found.results.length).toBe(3);
    });
    const search = one(spans, 'search');
    expect(search.parentSpanId).toBe('');
    expect(search.attributes).toMatchObject({
      'evident.retrieval.top_k': 3,
      'evident.retrieval.channels': ['bm25', 'vector'],
      'evident.retrieval.rerank': true,
      'evident.retrieval.result_count': 3,
    });
    const stages = childrenOf(spans, search);
    expect(stages.map((span) => span.name).sort()).toEqual([
      'retrieval bm25',
      'retrieval dedupe',
      'retrieval fetch',
      'retrieval fuse',
      'retrieval rerank',
      'retrieval vector',
    ]);
    expect(one(spans, 'retrieval vector').attributes['evident.retrieval.channel']).toBe('vector');
    expect(one(spans, 'retrieval rerank').attributes['evident.retrieval.result_count']).toBeGreaterThanOrEqual(3);
    expect(exportedText(spans)).not.toContain('termination fee');
    expectNoCorpusText(spans);
  });

  it('records the question (and a search query) only when tracing.recordQuestions is on', async () => {
    const spans = await traced({ tracing: { recordQuestions: true } }, async (evident) => {
      await ask(evident);
      await evident.search.search('liability cap', alice);
    });
    expect(one(spans, 'run rag').attributes['evident.question']).toBe(QUESTION);
    const roots = spans.filter((span) => span.parentSpanId === '');
    expect(roots.find((span) => span.name === 'search')?.attributes['evident.question']).toBe('liability cap');
    // Still no document text: the setting adds the question, nothing else.
    expectNoCorpusText(spans);
  });

  it('exports a span per chat model call under the node that made it, with the model id', async () => {
    const spans = await traced(
      // The scripted model quotes a passage's first words: the spans are under test, not whether that answers (the gate off).
      {
        llm: 'openai:trace-model',
        llmBaseUrl: `${llm.url}/v1`,
        llmApiKey: 'trace-test-key',
        agents: { evidenceGate: 'off' },
      },
      async (evident) => {
        const result = await ask(evident);
        expect(result.mode).toBe('openai:trace-model');
        expect(result.status).toBe('answered');
      },
    );
    const calls = spans.filter((span) => span.name === 'chat openai:trace-model');
    // Each structured step is one call (rewrite, decompose, route, answerability, answer…), whatever route it took to
    // the model: the JSON-schema format makes ChatOpenAI copy itself, and the copy reports too.
    expect(calls.length).toBeGreaterThanOrEqual(3);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const call of calls) {
      expect(byId.get(call.parentSpanId)?.name).toMatch(/^node \w+$/);
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'openai:trace-model',
        'evident.model.id': 'openai:trace-model',
      });
      expect(call.attributes['evident.model.message_count']).toBeGreaterThan(0);
    }
    expect(calls.map((call) => byId.get(call.parentSpanId)?.name)).toContain('node generate');
    // The prompts carried the evidence to the model; none of it went into a span.
    expectNoCorpusText(spans, [QUESTION]);
  });

  it('exports a model call made outside a run too, with the token counts the provider reported', async () => {
    const spans = await traced({ llm: 'ollama:trace-model', llmBaseUrl: llm.url }, async (evident) => {
      llm.replies = ['Three short words.'];
      const chat = await evident.chatModel();
      await chat?.model.invoke('Say three words.');
    });
    const call = one(spans, 'chat ollama:trace-model');
    expect(call.parentSpanId).toBe('');
    expect(call.attributes).toMatchObject({
      'gen_ai.request.model': 'ollama:trace-model',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(exportedText(spans)).not.toMatch(/three/i);
  });

  it('traces a chat model the caller gave while its Evident lives, and leaves it as it was on close', async () => {
    receiver.clear();
    const model = new RecordingChatModel(['first reply', 'second reply']);
    const evident = await createEvident(loadConfig({ flags: { db: corpus.db }, env: {} }), {
      chat: { id: 'recording:test', model },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
    await (await evident.chatModel())?.model.invoke('Hello');
    await evident.close();
    expect(model.callbacks).toEqual([]);
    await model.invoke('Hello again');
    const spans = receiver.spans();
    expect(spans.map((span) => span.name)).toEqual(['chat recording:test']);
    expect(spans[0]?.serviceName).toBe('evident');
  });

  it('with no endpoint registers no provider and exports nothing', async () => {
    receiver.clear();
    const evident = await createEvident(loadConfig({ flags: { db: corpus.db }, env: {} }), { env: {} });
    expect(tracingActive()).toBe(false);
    await ask(evident);
    await evident.search.search('termination fee', alice);
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegateTracer('evident')).toBeUndefined();
    expect(trace.getTracer('evident').startSpan('probe').isRecording()).toBe(false);
    await evident.close();
    expect(receiver.bodies).toEqual([]);
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', async () => {
    await expect(
      createEvident(loadConfig({ flags: { db: corpus.db }, env: {} }), {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' },
      }),
    ).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT'),
    });
    expect(tracingActive()).toBe(false);
  });
});

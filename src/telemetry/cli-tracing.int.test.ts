import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../testing/otlp-receiver.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(repo, 'bin/evident.js');
const QUESTION = 'What is the termination fee of CT-2024-0193?';

let corpus: SampleCorpusStore;
let receiver: OtlpReceiver;

beforeAll(async () => {
  [corpus, receiver] = await Promise.all([
    openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]),
    startOtlpReceiver(),
  ]);
});

afterAll(async () => {
  await Promise.all([corpus?.close(), receiver?.close()]);
});

describe('tracing from the CLI', () => {
  it('`evident ask` in its own process sends its spans before it exits', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'evident-cli',
    };
    for (const name of [
      'EVIDENT_DB',
      'EVIDENT_DATABASE_URL',
      'EVIDENT_LLM',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'EVIDENT_TRACE_QUESTIONS',
    ])
      delete env[name];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [bin, '--db', corpus.db, 'ask', QUESTION, '--as', 'alice', '--json'],
      { cwd: repo, env },
    );
    const result = JSON.parse(stdout) as { run_id: string; thread_id: string; status: string };
    expect(result.status).toBe('answered');
    // The process has exited: whatever arrived was sent by its close, not by a timer still running.
    const spans = receiver.spans();
    const run = spans.find((span) => span.name === 'run rag');
    expect(run?.parentSpanId).toBe('');
    expect(run?.serviceName).toBe('evident-cli');
    expect(run?.attributes).toMatchObject({
      'evident.run_id': result.run_id,
      'evident.thread_id': result.thread_id,
      'evident.run.status': 'answered',
    });
    const nodes = spans.filter((span) => span.parentSpanId === run?.spanId).map((span) => span.name);
    expect(nodes).toEqual(expect.arrayContaining(['node retrieve', 'node generate', 'node finalize']));
    expect(spans.filter((span) => span.name === 'search').length).toBeGreaterThan(0);
    expect(receiver.bodies.join('\n')).not.toContain(QUESTION);
  });
});

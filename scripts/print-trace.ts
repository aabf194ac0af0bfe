/**
 * Prints the trace of one real `evident ask` as an indented span tree with durations (what docs/deployment.md "Tracing" shows):
 *
 *   node --import tsx scripts/print-trace.ts ["question"] [--agent rag|react|controllable] [--as alice]
 *
 * A local OTLP/HTTP receiver stands in for a collector; the sample corpus is ingested into a scratch store, then the
 * CLI asks in its own process with OTEL_EXPORTER_OTLP_ENDPOINT pointing at the receiver, as a user would run it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { startOtlpReceiver } from '../src/testing/otlp-receiver.ts';
import { formatSpanTree } from '../src/testing/span-tree.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const bin = join(repo, 'bin/evident.js');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { agent: { type: 'string', default: 'rag' }, as: { type: 'string', default: 'alice' } },
});
const question = positionals[0] ?? 'What is the termination fee of CT-2024-0193?';

const dir = await mkdtemp(join(tmpdir(), 'evident-trace-'));
const receiver = await startOtlpReceiver();
try {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'EVIDENT_DB',
    'EVIDENT_DATABASE_URL',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  ])
    delete env[name];
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    promisify(execFile)(process.execPath, [bin, '--db', join(dir, 'store.db'), ...args], {
      cwd: repo,
      env: { ...env, ...extra },
    });
  await cli(['users', 'add', 'alice', '--groups', 'legal']);
  await cli(['ingest', join(repo, 'samples/corpus')]);
  const { stdout } = await cli(['ask', question, '--agent', values.agent ?? 'rag', '--as', values.as ?? 'alice'], {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  });
  process.stdout.write(
    `$ OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.endpoint} evident ask ${JSON.stringify(question)} --agent ${values.agent} --as ${values.as}\n`,
  );
  process.stdout.write(`${stdout.trim().split('\n')[0]}\n\n`);
  process.stdout.write(`${formatSpanTree(receiver.spans())}\n`);
  process.stdout.write(
    `\n${receiver.spans().length} spans in ${receiver.bodies.length} OTLP/HTTP request(s), service.name=${receiver.spans()[0]?.serviceName}\n`,
  );
} finally {
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
}

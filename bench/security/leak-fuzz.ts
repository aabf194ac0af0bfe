/**
 * The full-size leak fuzz: 10,000 seeded queries made of restricted documents' own words (the sample corpus and
 * canary documents), asked by users without access on every surface (CLI search, /v1/search, LangGraph runs with
 * their state and history, chat completions, uploads, listings); every output and every prompt the model saw is
 * searched for the denied documents' ids, titles, canaries and word runs. Prints a table per surface, writes JSON.
 * The bounded CI version is src/security/leak-fuzz.int.test.ts.
 *
 *   npm run bench:leak -- [--queries 10000] [--seed 12001] [--json bench-leak.json]
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import { LOCAL_OPERATOR } from '../../src/domain/index.ts';
import { startApiTestServer } from '../../src/testing/api-test-server.ts';
import { CompliantChatModel } from '../../src/testing/compliant-chat-model.ts';
import {
  addSampleUsers,
  canaryDocuments,
  coverage,
  fuzzQueries,
  LEAK_SURFACES,
  runLeakFuzz,
  uploadCanaries,
} from '../../src/testing/leak-fuzz.ts';
import { LeakOracle, readCorpus } from '../../src/testing/leak-oracle.ts';
import { SAMPLE_CORPUS } from '../../src/testing/sample-corpus-store.ts';
import { describeEnvironment } from '../environment.ts';

const { values: flags } = parseArgs({
  options: {
    queries: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '12001' },
    canaries: { type: 'string', default: '12' },
    json: { type: 'string' },
  },
  strict: true,
});

const positive = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return parsed;
};

async function main(): Promise<void> {
  const count = positive('queries', flags.queries);
  const seed = positive('seed', flags.seed);
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const model = new CompliantChatModel();
  const api = await startApiTestServer({
    // The permission layer alone: the evidence gate refusing an off-topic answer must not be what stops a leak.
    env: { EVIDENT_EVIDENCE_GATE: 'off' },
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'compliant:leak-fuzz', model } }),
  });
  try {
    const users = await addSampleUsers(api);
    const canaries = canaryDocuments(seed, positive('canaries', flags.canaries));
    await uploadCanaries(api, canaries);
    const titles = new Map(
      (await api.evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => [doc.docId, doc.title]),
    );
    const oracle = new LeakOracle([...(await readCorpus(SAMPLE_CORPUS, titles)), ...canaries]);
    const queries = fuzzQueries(oracle, users, { seed, count });
    const report = await runLeakFuzz(api, oracle, queries, model, (done) => {
      if (done % 500 === 0)
        process.stderr.write(`${done}/${count} queries, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    });
    const environment = describeEnvironment('bench/security/leak-fuzz.ts', started, loadBefore);
    const rows = LEAK_SURFACES.map((surface) => {
      const stats = report.perSurface[surface];
      const leaks = report.leaks.filter((leak) => leak.surface === surface).length;
      return {
        surface,
        queries: stats.queries,
        failed: stats.failed,
        leaks,
        ms_per_query: stats.queries ? stats.ms / stats.queries : 0,
      };
    });
    const lines = [
      `# Leak fuzz (seed ${seed})`,
      '',
      `${environment.date}, ${environment.cpus} × ${environment.nproc}, Node ${environment.node}, commit ${environment.commit}, load ${environment.loadBefore.toFixed(1)} → ${environment.loadAfter.toFixed(1)}, ${environment.totalSeconds.toFixed(0)} s`,
      '',
      `${report.queries} queries by ${users.length} users against ${oracle.documents.filter((doc) => doc.acl.length > 0).length} restricted documents (${canaries.length} with canaries); ` +
        `${report.prompts} model prompts checked; the queries use ${(coverage(queries, oracle) * 100).toFixed(0)}% of the restricted documents' distinct words.`,
      '',
      '| surface | queries | failed | leaks | ms/query |',
      '|---|---:|---:|---:|---:|',
      ...rows.map(
        (row) => `| ${row.surface} | ${row.queries} | ${row.failed} | ${row.leaks} | ${row.ms_per_query.toFixed(1)} |`,
      ),
      `| **all** | ${report.queries} | ${rows.reduce((sum, row) => sum + row.failed, 0)} | ${report.leaks.length} | |`,
    ];
    if (report.leaks.length > 0)
      lines.push(
        '',
        'First leaks:',
        ...report.leaks
          .slice(0, 10)
          .map(
            (leak) =>
              `- #${leak.index} ${leak.surface} ${leak.user} (${leak.where}): ${leak.kind} of ${leak.docId}: ${JSON.stringify(leak.found)} ← ${JSON.stringify(leak.query)}`,
          ),
      );
    if (report.failures.length > 0)
      lines.push(
        '',
        'First failures:',
        ...report.failures.slice(0, 10).map((failure) => `- #${failure.index} ${failure.surface}: ${failure.detail}`),
      );
    process.stdout.write(`${lines.join('\n')}\n`);
    if (flags.json)
      writeFileSync(
        flags.json,
        `${JSON.stringify({ environment, seed, rows, prompts: report.prompts, leaks: report.leaks, failures: report.failures }, null, 2)}\n`,
      );
    if (report.leaks.length > 0) process.exitCode = 1;
  } finally {
    await api.close();
  }
}

await main();

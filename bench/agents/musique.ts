/**
 * Multi-hop agents on MuSiQue, offline: for a fixed sample (the first N answerable questions of the file), each
 * question's own paragraphs become a fresh store (one document per paragraph), and every agent named in --agents runs
 * the question through the run runtime, as the API runs it. Reported per agent: the share of the supporting paragraphs
 * found in the run's evidence, how often all of them were, and how often the answer contains the gold answer (or an
 * alias). Any agent the runtime serves can be added to the table with --agents.
 *
 *   npm run bench:musique -- [--limit 50] [--agents rag,react,controllable] [--data ../shared/datasets/musique/musique_train.json] [--json out.json]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import type { RagStateType } from '../../src/agent/rag/rag-state.ts';
import { LOCAL_OPERATOR } from '../../src/domain/index.ts';
import { createEvident } from '../../src/evident.ts';
import { describeEnvironment } from '../environment.ts';
import { benchConfig } from '../retrieval/measure-size.ts';
import { loadMusique, paragraphDocId, supportingDocIds, type MusiqueQuestion } from './musique-data.ts';
import {
  containsAnswer,
  figuresOf,
  supportRecall,
  type AgentFigures,
  type QuestionOutcome,
} from './musique-metrics.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');

const { values: flags } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(repo, '../shared/datasets/musique/musique_train.json') },
    limit: { type: 'string', default: '50' },
    agents: { type: 'string', default: 'rag,react,controllable' },
    json: { type: 'string' },
  },
  strict: true,
});

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** One question: a fresh store of its paragraphs, each agent's run, each run's outcome. */
async function runQuestion(
  question: MusiqueQuestion,
  agents: readonly string[],
): Promise<Record<string, QuestionOutcome>> {
  const workDir = mkdtempSync(join(tmpdir(), 'evident-musique-'));
  const evident = await createEvident(benchConfig(workDir, join(workDir, 'store.db')));
  const runtime = await openAgentRuntime(evident);
  try {
    const ingest = await evident.ingestor.ingestRecords(
      question.paragraphs.map((paragraph) => ({
        docId: paragraphDocId(paragraph.idx),
        title: paragraph.title,
        text: paragraph.paragraph_text,
      })),
    );
    if (ingest.failed > 0) throw new Error(`${question.id}: ${ingest.failed} paragraphs failed to ingest`);
    const supporting = supportingDocIds(question);
    const gold = [question.answer, ...question.answer_aliases];
    const outcomes: Record<string, QuestionOutcome> = {};
    for (const agent of agents) {
      const threadId = randomUUID();
      const started = performance.now();
      const run = await runtime.runs.start({
        agent,
        threadId,
        principal: LOCAL_OPERATOR,
        action: { kind: 'ask', question: question.question, history: [] },
        createThread: true,
      });
      const record = await runtime.runs.wait(run.runId, new AbortController().signal);
      const ms = performance.now() - started;
      const { snapshot } = await runtime.runs.threadState(threadId, LOCAL_OPERATOR);
      // Every agent's state carries the shared fields: the evidence it retrieved and the answer contract.
      const values = (snapshot?.values ?? {}) as Partial<RagStateType>;
      const evidenceDocs = [...new Set((values.evidence ?? []).map((item) => item.doc_id))];
      const recall = supportRecall(evidenceDocs, supporting);
      outcomes[agent] = {
        recall,
        recallAt5: supportRecall(evidenceDocs.slice(0, 5), supporting),
        allSupporting: recall === 1,
        contains: containsAnswer(values.answer?.answer ?? '', gold),
        answered: values.answer?.answerable === true,
        evidence: evidenceDocs.length,
        ms,
        failed: record?.status === 'failed' || record?.status === 'cancelled',
      };
      if (outcomes[agent].failed) log(`${question.id} ${agent}: ${record?.status} ${record?.error ?? ''}`);
    }
    return outcomes;
  } finally {
    await runtime.close();
    await evident.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

function formatTable(figures: Record<string, AgentFigures>): string {
  const rows = Object.entries(figures).map(
    ([agent, f]) =>
      `| ${agent} | ${f.questions} | ${f.supportRecall.toFixed(3)} | ${f.supportRecallAt5.toFixed(3)} | ${pct(f.allSupportingRate)} | ${pct(f.containment)} | ${pct(f.answeredRate)} | ${f.meanEvidence.toFixed(1)} | ${Math.round(f.p50Ms)} | ${f.failures} |`,
  );
  return [
    '| agent | questions | supporting-paragraph recall | recall in the first 5 | all supporting found | answer containment | answered (not refused) | evidence docs / run | p50 ms | failed runs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`--limit must be a positive integer, got ${JSON.stringify(flags.limit)}`);
  const agents = flags.agents
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const questions = loadMusique(resolve(flags.data), limit);
  log(
    `${questions.length} answerable questions from ${flags.data}; agents: ${agents.join(', ')}; one fresh store per question`,
  );
  const perAgent: Record<string, QuestionOutcome[]> = Object.fromEntries(agents.map((agent) => [agent, []]));
  for (const [i, question] of questions.entries()) {
    const outcomes = await runQuestion(question, agents);
    for (const agent of agents) perAgent[agent]?.push(outcomes[agent] as QuestionOutcome);
    log(
      `[${i + 1}/${questions.length}] ${question.id}: ${agents.map((agent) => `${agent} recall ${outcomes[agent]?.recall.toFixed(2)} ${outcomes[agent]?.contains ? 'contains' : '-'}`).join(' · ')}`,
    );
  }
  const figures = Object.fromEntries(Object.entries(perAgent).map(([agent, outcomes]) => [agent, figuresOf(outcomes)]));
  process.stdout.write(`${formatTable(figures)}\n`);
  if (flags.json) {
    const report = {
      environment: describeEnvironment('bench/agents/musique.ts', started, loadBefore),
      settings: { data: flags.data, limit, agents },
      figures,
    };
    writeFileSync(resolve(flags.json), `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${resolve(flags.json)}`);
  }
  if (Object.values(figures).some((f) => f.failures > 0)) process.exitCode = 1;
}

await main();

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../agent/agent-runtime.ts';
import { configSchema } from '../../config/schema.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { readCases, type LocatedCase } from '../cases/read-cases.ts';
import { principalForCase, readUsers, type UserDirectory } from '../cases/read-users.ts';
import { LAYERS } from '../layers/layer-result.ts';
import { runEval, type EvalReport } from '../run/run-eval.ts';
import { mayRead, readCorpusDocuments, type CorpusDocument } from './corpus-documents.ts';
import { SAMPLE_CORPUS_CASES, SAMPLE_CORPUS_DIR, SAMPLE_USERS } from './sample-corpus-paths.ts';
import { SAMPLE_CORPUS_THRESHOLDS } from './sample-corpus-thresholds.ts';

// The CI gate: every registered agent, offline (no chat model: deterministic), on the project's own set. A layer whose
// pass rate falls below the floor measured for it fails the build, naming the cases that fail there.
const root = mkdtempSync(join(tmpdir(), 'evident-gate-'));
let evident: Evident;
let registered: string[];
let cases: LocatedCase[];
let users: UserDirectory;
let documents: Map<string, CorpusDocument>;
let report: EvalReport;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const runtime = await openAgentRuntime(evident);
  registered = [...runtime.runs.agents.keys()];
  await runtime.close();
  cases = await readCases(SAMPLE_CORPUS_CASES);
  users = await readUsers(SAMPLE_USERS);
  documents = await readCorpusDocuments(SAMPLE_CORPUS_DIR);
  report = await runEval(evident, {
    cases,
    casesFile: SAMPLE_CORPUS_CASES,
    corpus: SAMPLE_CORPUS_DIR,
    users,
    agent: 'all',
  });
}, 600_000);
afterAll(async () => {
  await evident?.close();
  rmSync(root, { recursive: true, force: true });
});

const floors: Readonly<Record<string, Readonly<Record<string, number>>>> = SAMPLE_CORPUS_THRESHOLDS.agents;

describe('sample corpus gate (offline)', () => {
  it('ran offline on the whole corpus, every case for every registered agent', () => {
    expect(report.meta.mode).toBe('offline');
    expect(report.meta.failed_documents).toBe(0);
    expect(report.meta.agents).toEqual(registered);
    expect(report.cases).toHaveLength(registered.length * cases.length);
  });

  it('has floors for exactly the registered agents', () => {
    // A new agent is gated from its first day: measure it with the thresholds file's command and add its floors.
    expect(Object.keys(floors).sort()).toEqual([...registered].sort());
  });

  it('keeps every agent at or above its overall and per-layer floors, and its wrong answers under their ceiling', () => {
    const drops: string[] = [];
    for (const agent of registered) {
      const summary = report.summary[agent];
      const floor = floors[agent] ?? {};
      if (!summary) continue;
      const risk = summary.selective.risk;
      if (floor.risk !== undefined && risk !== null && risk > floor.risk) {
        const wrong = report.cases.filter((c) => c.agent === agent && c.selective.wrong).map((c) => c.id);
        drops.push(`${agent} risk ${risk} > ${floor.risk} (wrong: ${wrong.join(', ')})`);
      }
      const overall = floor.overall;
      if (overall !== undefined && summary.overall.pass_rate < overall)
        drops.push(`${agent} overall ${summary.overall.pass_rate} < ${overall}`);
      for (const layer of LAYERS) {
        const min = floor[layer];
        const rate = summary[layer].pass_rate;
        if (min === undefined) continue;
        if (rate === null || rate < min) {
          const failing = report.cases
            .filter((c) => c.agent === agent && c.layers[layer].status === 'fail')
            .map((c) => c.id);
          drops.push(`${agent} ${layer} ${rate ?? 'not scored'} < ${min} (failing: ${failing.join(', ')})`);
        }
      }
    }
    expect(drops).toEqual([]);
  });

  it('never retrieves, keeps or cites a document the asking user may not read', () => {
    const leaks: string[] = [];
    const principals = new Map(cases.map((located) => [located.evalCase.id, principalForCase(located, users)]));
    for (const result of report.cases) {
      const principal = principals.get(result.id);
      if (!principal) continue;
      const seen = [
        ...(result.trace.retrieved_doc_ids ?? []),
        ...(result.trace.evidence_ids ?? []).map((chunkId) => chunkId.replace(/#\d+$/, '')),
        ...result.trace.citations.map((citation) => citation.doc_id),
      ];
      for (const docId of new Set(seen)) {
        if (!mayRead(documents.get(docId)?.acl ?? [], principal)) leaks.push(`${result.agent} ${result.id}: ${docId}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('refuses every permission-denied question in every agent', () => {
    const answered = report.cases
      .filter((c) => c.tags.includes('denied') && c.layers.answerability.status !== 'pass')
      .map((c) => `${c.agent} ${c.id}`);
    expect(answered).toEqual([]);
  });
});

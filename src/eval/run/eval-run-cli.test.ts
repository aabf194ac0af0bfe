import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/run-cli.ts';
import { SAMPLE_CORPUS } from '../../testing/sample-corpus-store.ts';
import type { EvalReport } from './run-eval.ts';

const USERS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'samples/users.json');

const CASES = [
  {
    id: 'fee',
    user: 'alice',
    question: 'What is the termination fee in contract CT-2024-0193?',
    expect: {
      relevant_docs: ['contracts/ct-2024-0193.md'],
      answerable: true,
      answer_contains: ['48000'],
      cite_docs: ['contracts/ct-2024-0193.md'],
      tools: { forbidden: ['save_memory'] },
    },
  },
  {
    id: 'follow-up',
    user: 'alice',
    history: [
      { role: 'user', content: 'Tell me about contract CT-2024-0193.' },
      { role: 'assistant', content: 'It is a services agreement with Northwind Logistics.' },
    ],
    question: 'And what is its termination fee?',
    expect: { standalone_contains: ['CT-2024-0193'], answerable: true, answer_contains: ['$48,000'] },
  },
  // bob (engineering) may not read the legal contract: the right outcome is a refusal.
  {
    id: 'denied',
    user: 'bob',
    question: 'What is the termination fee in contract CT-2024-0193?',
    expect: { answerable: false },
  },
  // Fails on purpose at retrieval: the market notes are treasury's, which alice may not see, so they never rank.
  {
    id: 'wrong-doc',
    user: 'alice',
    question: 'What is the termination fee in contract CT-2024-0193?',
    expect: { relevant_docs: ['finance/market-notes.txt'], answer_contains: ['48,000'] },
  },
  {
    id: 'xss',
    user: 'alice',
    question: 'Is <script>alert(1)</script> in CT-2024-0193?',
    expect: { answer_contains: ['never said'] },
  },
];

let dir: string;
let casesFile: string;
let run: { code: number; stdout: string; stderr: string };
let report: EvalReport;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-eval-run-'));
  casesFile = join(dir, 'cases.jsonl');
  await writeFile(casesFile, CASES.map((c) => JSON.stringify(c)).join('\n') + '\n');
  run = await runCli([
    'eval',
    'run',
    casesFile,
    '--corpus',
    SAMPLE_CORPUS,
    '--users',
    USERS,
    '--agent',
    'rag',
    '--json',
    '--report',
    join(dir, 'report.html'),
  ]);
  report = JSON.parse(run.stdout) as EvalReport;
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident eval run (rag, offline, sample corpus)', () => {
  it('prints {summary: {agent: {layer: metrics}}, cases} with every layer of every case', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(Object.keys(report.summary)).toEqual(['rag']);
    expect(Object.keys(report.summary.rag ?? {})).toEqual([
      'overall',
      'rewrite',
      'retrieval',
      'rerank',
      'answerability',
      'citations',
      'schema',
      'answer',
      'tools',
      'selective',
    ]);
    expect(report.summary.rag?.overall).toMatchObject({ cases: 5 });
    expect(report.cases.map((c) => c.id)).toEqual(['fee', 'follow-up', 'denied', 'wrong-doc', 'xss']);
    for (const result of report.cases) {
      expect(result).toEqual(
        expect.objectContaining({ agent: 'rag', passed: expect.any(Boolean), latency_ms: expect.any(Number) }),
      );
      expect(Object.keys(result.layers)).toHaveLength(8);
    }
  });

  it('scores the good cases through, a denied document as a refusal, and names the layer a case fails at', () => {
    const byId = Object.fromEntries(report.cases.map((c) => [c.id, c]));
    expect(byId.fee).toMatchObject({ passed: true, first_failure: null });
    expect(byId.fee?.layers.retrieval).toMatchObject({ status: 'pass', metrics: { hit_at_10: 1, mrr_at_10: 1 } });
    expect(byId.fee?.layers.citations).toMatchObject({ status: 'pass', metrics: { validity: 1, recall: 1 } });
    expect(byId['follow-up']).toMatchObject({ passed: true });
    expect(byId['follow-up']?.layers.rewrite.status).toBe('pass');
    expect(byId.denied).toMatchObject({ passed: true, trace: { answerable: false } });
    expect(byId.denied?.trace.retrieved_doc_ids).not.toContain('contracts/ct-2024-0193.md');
    expect(byId['wrong-doc']).toMatchObject({ passed: false, first_failure: 'retrieval' });
    expect(byId['wrong-doc']?.layers.answer.status).toBe('pass');
    expect(byId.xss).toMatchObject({ passed: false, first_failure: 'answer' });
    expect(report.summary.rag?.overall.first_failures).toEqual({ retrieval: 1, answer: 1 });
  });

  it('reads every run as selective answering, with the answer confidence in its trace', () => {
    const byId = Object.fromEntries(report.cases.map((c) => [c.id, c]));
    expect(byId.fee?.trace.confidence).toEqual(expect.any(Number));
    expect(byId.fee?.selective).toMatchObject({
      expected: 'answer',
      answered: true,
      confidence: byId.fee?.trace.confidence,
    });
    expect(byId.denied?.selective).toMatchObject({ expected: 'refuse', answered: false, wrong: false });
    expect(byId.xss?.selective).toMatchObject({ expected: 'answer', right: false });
    const selective = report.summary.rag?.selective;
    // fee, follow-up, wrong-doc and xss have a gold value; denied expects a refusal.
    expect(selective).toMatchObject({ cases: 5, gold_cases: 4, reliability: expect.any(Array) });
    expect(selective?.risk_coverage.at(-1)?.answered).toBe(selective?.answered);
  });

  it('shows progress on stderr while it runs', () => {
    expect(run.stderr).toMatch(/ingest 12\/12 documents/);
    expect(run.stderr).toContain('case: 1/5 rag fee: pass');
    expect(run.stderr).toMatch(/case: 4\/5 rag wrong-doc: fail at retrieval \(\d+ ms\); passed rag 3\/4/);
  });

  it('writes one self-contained HTML report with the charts, escaping what it shows', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // Pass rate by layer, agents compared, latency, and the one agent's risk–coverage curve.
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).toContain('rag: risk–coverage');
    expect(html).toContain('Pass rate by layer');
    expect(html).toContain('Latency distribution');
    expect(html).not.toMatch(/<script|src="http|href="http/i);
    expect(html).toContain('Is &lt;script&gt;alert(1)&lt;/script&gt; in CT-2024-0193?');
    expect(html).toContain('wrong-doc');
  });

  it('prints a readable table without --json, and compares two results', async () => {
    const table = await runCli(['eval', 'run', casesFile, '--corpus', SAMPLE_CORPUS, '--users', USERS]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/\nrag\s+3\/5 \(60%\)\s+1\/1\s+1\/2\s+1\/2\s+3\/3/);
    expect(table.stdout).toMatch(/Selective answering \(coverage[^\n]*\n(?:.*\n){2}rag\s+\d+\/5 /);
    expect(table.stdout).toMatch(/wrong-doc\s+rag\s+retrieval\s+not in the first 10: "finance\/market-notes\.txt"/);

    const before = {
      ...report,
      cases: report.cases.map((c) =>
        c.id === 'fee'
          ? {
              ...c,
              passed: false,
              first_failure: 'citations',
              layers: { ...c.layers, citations: { status: 'fail', detail: '' } },
            }
          : c,
      ),
    };
    await writeFile(join(dir, 'before.json'), JSON.stringify(before));
    await writeFile(join(dir, 'after.json'), run.stdout);
    const compared = await runCli(['eval', 'compare', join(dir, 'before.json'), join(dir, 'after.json')]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('improved  rag/fee: fail at citations → pass (now passes citations)');
    expect(compared.stdout).toMatch(/1 improved, 0 regressed, 0 changed, 4 unchanged; pass rate 40\.0% → 60\.0%\n$/);
  }, 60_000);

  it('refuses bad input with a typed error and a hint', async () => {
    await writeFile(join(dir, 'bad.jsonl'), `${JSON.stringify(CASES[0])}\n{"id": "x", "user": "alice"}\n`);
    const bad = await runCli(['eval', 'run', join(dir, 'bad.jsonl'), '--corpus', SAMPLE_CORPUS]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.jsonl:2 is not a valid case: question: /);
    await writeFile(join(dir, 'stranger.jsonl'), '{"id": "s", "user": "zed", "question": "Q?"}\n');
    const stranger = await runCli([
      'eval',
      'run',
      join(dir, 'stranger.jsonl'),
      '--corpus',
      SAMPLE_CORPUS,
      '--users',
      USERS,
    ]);
    expect(stranger.stderr).toMatch(/stranger\.jsonl:1: case "s" asks as "zed", who is not in .*users\.json/);
    const noCorpus = await runCli(['eval', 'run', casesFile, '--corpus', join(dir, 'missing')]);
    expect(noCorpus.stderr).toMatch(/The corpus folder .*missing does not exist\. Pass --corpus <dir>/);
    const noAgent = await runCli([
      'eval',
      'run',
      casesFile,
      '--corpus',
      SAMPLE_CORPUS,
      '--users',
      USERS,
      '--agent',
      'nope',
    ]);
    expect(noAgent.stderr).toMatch(/No agent named "nope"\. Agents here: rag/);
  }, 60_000);
});

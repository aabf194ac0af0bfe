import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCases } from '../../eval/cases/read-cases.ts';
import { feedbackPageJson, type FeedbackJson } from '../../server/schemas/feedback-json.ts';
import { runCli } from '../../testing/run-cli.ts';

const corpus = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'samples/corpus');
const QUESTION = 'What is the termination fee of CT-2024-0193?';

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);
const ok = async (...args: string[]) => {
  const run = await cli(...args);
  expect(run.code, run.stderr).toBe(0);
  return run;
};
const ask = async (as: string, question = QUESTION) =>
  JSON.parse((await ok('ask', question, '--as', as, '--json')).stdout) as {
    run_id: string;
    answer: { answer: string };
  };

let alicesRun: string;
let bobsRun: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-feedback-cli-'));
  db = join(dir, 'evident.db');
  await ok('ingest', corpus);
  await ok('users', 'add', 'alice', '--groups', 'legal');
  await ok('users', 'add', 'bob', '--groups', 'engineering');
  alicesRun = (await ask('alice')).run_id;
  bobsRun = (await ask('bob')).run_id;
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('evident feedback', () => {
  it('rates a run of your own, refuses one of another user as not found, and refuses an oversized correction', async () => {
    const rated = JSON.parse(
      (
        await ok(
          'feedback',
          'rate',
          alicesRun,
          '--down',
          '--reason',
          'incorrect',
          '--correction',
          'The termination fee is EUR 48,000.',
          '--as',
          'alice',
          '--json',
        )
      ).stdout,
    ) as FeedbackJson;
    expect(rated).toMatchObject({
      run_id: alicesRun,
      rater: 'alice',
      rating: 'down',
      agent: 'rag',
      question: QUESTION,
    });

    const foreign = await cli('feedback', 'rate', alicesRun, '--up', '--as', 'bob');
    const missing = await cli('feedback', 'rate', 'no-such-run', '--up', '--as', 'bob');
    expect(foreign.code).not.toBe(0);
    expect(foreign.stderr.replace(alicesRun, 'X')).toBe(missing.stderr.replace('no-such-run', 'X'));

    const huge = await cli('feedback', 'rate', bobsRun, '--down', '--correction', 'x'.repeat(4_001), '--as', 'bob');
    expect(huge.code).not.toBe(0);
    expect(huge.stderr).toMatch(/correction has 4001 characters/);
    expect((await cli('feedback', 'rate', bobsRun, '--as', 'bob')).code).not.toBe(0);
    expect((await cli('feedback', 'rate', bobsRun, '--up', '--reason', 'bored', '--as', 'bob')).code).not.toBe(0);
    // bob's thumbs-down without a correction.
    await ok('feedback', 'rate', bobsRun, '--down', '--as', 'bob');
  });

  it('lists feedback newest first with filters, as JSON and as a table', async () => {
    const list = async (...args: string[]) =>
      feedbackPageJson.parse(JSON.parse((await ok('feedback', ...args, '--json')).stdout));
    expect((await list()).feedback.map((f) => f.rater)).toEqual(['bob', 'alice']);
    expect((await list('--has-correction', 'true')).feedback.map((f) => f.rater)).toEqual(['alice']);
    expect((await list('--user', 'bob', '--rating', 'down')).feedback.map((f) => f.run_id)).toEqual([bobsRun]);
    expect((await list('--rating', 'up')).feedback).toEqual([]);
    const table = (await ok('feedback')).stdout;
    expect(table).toMatch(/alice\s+rag\s+\S+\s+down\s+incorrect/);
    expect((await cli('feedback', '--rating', 'sideways')).code).not.toBe(0);
  });

  it('exports feedback as evaluation cases, and an eval run of them shows the counts and catches the repeated answer', async () => {
    const cases = join(dir, 'from-feedback.jsonl');
    const exported = await ok('eval', 'from-feedback', '--out', cases, '--rating', 'down');
    expect(exported.stderr).toMatch(/2 cases from feedback \(0 up, 2 down, 1 with a correction\)/);
    const parsed = parseCases(await readFile(cases, 'utf8'), cases).map((located) => located.evalCase);
    const alices = parsed.find((c) => c.source?.rater === 'alice');
    const bobs = parsed.find((c) => c.source?.rater === 'bob');
    expect(alices).toMatchObject({
      user: 'alice',
      groups: ['legal'],
      question: QUESTION,
      expect: { answerable: true, answer_contains: ['48,000'] },
    });
    expect(bobs?.expect.answer_differs_from?.[0]?.length).toBeGreaterThan(0);

    const run = await ok('eval', 'run', cases, '--corpus', corpus, '--json');
    const report = JSON.parse(run.stdout) as {
      feedback: { agents: Record<string, { up: number; down: number; with_correction: number }> };
      cases: { id: string; layers: { answer: { status: string; detail: string } } }[];
    };
    expect(report.feedback.agents.rag).toEqual({ up: 0, down: 2, with_correction: 1 });
    const bobsResult = report.cases.find((c) => c.id === bobs?.id);
    // The offline agent answers as it did: the regression case catches the answer bob reported.
    expect(bobsResult?.layers.answer).toMatchObject({ status: 'fail', detail: 'gave an answer reported wrong again' });
  });
});

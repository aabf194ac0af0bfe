import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalCase } from '../../eval/cases/eval-case.ts';
import type { EvalReport } from '../../eval/run/run-eval.ts';
import { runCli } from '../../testing/run-cli.ts';

// Two RGB questions: the answer to each is only in its positive passages, and each question's corpus is its own.
const RGB = [
  {
    id: 7,
    query: '《炽道》的主演是谁',
    answer: ['金晨'],
    positive: ['《炽道》的女主演是金晨。', '金晨在《炽道》中饰演女教练。'],
    negative: ['《炽道》改编自同名小说。', '《炽道》在优酷播出。'],
  },
  {
    id: 8,
    query: '2023年亚洲杯举办国',
    answer: [['卡塔尔', 'Qatar']],
    positive: ['2023年亚洲杯在卡塔尔举办。'],
    negative: ['亚洲杯每四年举办一次。', '2019年亚洲杯在阿联酋举办。'],
  },
];
const MTRAG = [
  {
    task_id: 'c<::>1',
    Collection: 'clapnq',
    contexts: [{ document_id: '1-0-9', text: 'Jupiter is the largest planet.' }],
    input: [{ speaker: 'user', text: 'Largest planet?' }],
    answerability: ['ANSWERABLE'],
  },
  {
    task_id: 'c<::>2',
    Collection: 'clapnq',
    contexts: [],
    input: [{ speaker: 'user', text: 'What about it?' }],
    answerability: ['UNDERSPECIFIED'],
  },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-eval-convert-'));
  await writeFile(join(dir, 'rgb.jsonl'), RGB.map((q) => JSON.stringify(q)).join('\n'));
  await writeFile(join(dir, 'mtrag.jsonl'), MTRAG.map((t) => JSON.stringify(t)).join('\n'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const casesOf = async (out: string): Promise<EvalCase[]> =>
  (await readFile(join(out, 'cases.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EvalCase);

describe('evident eval convert rgb|mtrag', () => {
  it('converts RGB mixed, and a run asks each case only over its own passages', async () => {
    const out = join(dir, 'rgb-mixed');
    const converted = await runCli([
      'eval',
      'convert',
      'rgb',
      join(dir, 'rgb.jsonl'),
      '--variant',
      'mixed',
      '--out',
      out,
    ]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toMatch(/^4 cases, 7 documents \(scope: question\)/);
    expect((await casesOf(out)).map((c) => c.id)).toEqual([
      'rgb-7-negative',
      'rgb-7-positive',
      'rgb-8-negative',
      'rgb-8-positive',
    ]);
    const run = await runCli([
      'eval',
      'run',
      join(out, 'cases.jsonl'),
      '--corpus',
      join(out, 'corpus'),
      '--agent',
      'rag',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as EvalReport;
    const ownFolder = (id: string) => `rgb-${id.split('-')[1]}/`;
    for (const result of report.cases) {
      for (const docId of result.trace.retrieved_doc_ids ?? [])
        expect(docId.startsWith(ownFolder(result.id)), `${result.id} read ${docId}`).toBe(true);
      // The negative case never reads a passage holding the answer.
      if (result.id.endsWith('-negative'))
        expect(
          result.trace.citations.some((c) => /金晨|卡塔尔/.test(c.quote)),
          result.id,
        ).toBe(false);
    }
    expect(report.summary.rag?.answerability).toMatchObject({ unanswerable_cases: 2, answerable_cases: 2 });
    expect(report.summary.rag?.answer.accuracy_cases).toBe(2);
  }, 120_000);

  it('samples RGB passages on request and checks its options', async () => {
    const sampled = await runCli([
      'eval',
      'convert',
      'rgb',
      join(dir, 'rgb.jsonl'),
      '--variant',
      'positive',
      '--passages',
      '2',
      '--noise-rate',
      '0.5',
      '--out',
      join(dir, 'rgb-sampled'),
    ]);
    expect(sampled.stdout).toMatch(/^2 cases, 4 documents/);
    const badRate = await runCli([
      'eval',
      'convert',
      'rgb',
      join(dir, 'rgb.jsonl'),
      '--noise-rate',
      '1.5',
      '--out',
      join(dir, 'x'),
    ]);
    expect(badRate.stderr).toMatch(/--noise-rate must be a number from 0 to 1/);
    const badVariant = await runCli([
      'eval',
      'convert',
      'rgb',
      join(dir, 'rgb.jsonl'),
      '--variant',
      'noisy',
      '--out',
      join(dir, 'x'),
    ]);
    expect(badVariant.stderr).toMatch(/--variant must be one of negative, positive, mixed/);
    const badScope = await runCli([
      'eval',
      'convert',
      'rgb',
      join(dir, 'rgb.jsonl'),
      '--scope',
      'shared',
      '--out',
      join(dir, 'x'),
    ]);
    expect(badScope.stderr).toMatch(/rgb converts only with --scope question/);
  });

  it('converts MTRAG into one shared corpus, with the underspecified policy', async () => {
    const byContexts = await runCli([
      'eval',
      'convert',
      'mtrag',
      join(dir, 'mtrag.jsonl'),
      '--out',
      join(dir, 'mtrag'),
    ]);
    expect(byContexts.stdout).toMatch(/^2 cases, 1 documents \(scope: shared\)/);
    expect((await casesOf(join(dir, 'mtrag'))).map((c) => c.expect.answerable)).toEqual([true, false]);
    const skipped = await runCli([
      'eval',
      'convert',
      'mtrag',
      join(dir, 'mtrag.jsonl'),
      '--underspecified',
      'skip',
      '--out',
      join(dir, 'mtrag-skip'),
    ]);
    expect(skipped.stdout).toMatch(/^1 cases, 1 documents/);
  });
});

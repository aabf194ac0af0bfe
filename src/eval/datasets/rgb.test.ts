import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWith, sharedDataset } from '../../testing/requirements.ts';
import { scoreAnswer } from '../layers/score-answer.ts';
import { writeConvertedSet } from './converted-set.ts';
import { convertRgb, parseRgbQuestions, rgbAnswerEntries, rgbCaseDocs } from './rgb.ts';

const QUESTIONS = [
  {
    id: 1,
    query: '《炽道》的主演',
    answer: ['金晨', '王安宇'],
    positive: ['《炽道》由金晨和王安宇主演。', '女主金晨，男主王安宇。'],
    negative: ['《炽道》改编自同名小说。', '导演伊峥拍过《苍兰诀》。', '该剧在优酷播出。'],
  },
  {
    id: 2,
    query: 'Which site hosts the show?',
    answer: [['Bilibili', 'B站']],
    positive: ['It streams on Bilibili.'],
    negative: ['The show has 12 episodes.', 'It streams on Bilibili.'],
  },
];

const root = mkdtempSync(join(tmpdir(), 'evident-rgb-'));
const src = join(root, 'zh_refine.json');
writeFileSync(src, QUESTIONS.map((q) => JSON.stringify(q)).join('\n'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('RGB converter', () => {
  it('reads JSON lines or an array, and rejects a line that is not an RGB question', () => {
    expect(parseRgbQuestions(readFileSync(src, 'utf8'), src).map((q) => q.id)).toEqual(['1', '2']);
    expect(parseRgbQuestions(JSON.stringify(QUESTIONS), 'q.json')).toHaveLength(2);
    expect(() => parseRgbQuestions('{"id": 3, "query": "x"}', 'bad.json')).toThrow(
      /bad\.json: question 1 is not an RGB question/,
    );
  });

  it('turns the answer into entries, a nested list into alternatives', () => {
    expect(rgbAnswerEntries(['金晨', '王安宇'])).toEqual(['金晨', '王安宇']);
    expect(rgbAnswerEntries([['B站', '哔哩哔哩'], '2009'])).toEqual([['B站', '哔哩哔哩'], '2009']);
    expect(rgbAnswerEntries([['十六', ['16', '十六']], ' ', ['only']])).toEqual([['十六', '16'], 'only']);
    expect(rgbAnswerEntries('45天')).toEqual(['45天']);
  });

  it('negative: only the negative passages, an isolated corpus per question, a refusal expected', async () => {
    const set = await convertRgb(src, { variant: 'negative' });
    expect(set.cases.map((c) => [c.id, c.groups, c.tags, c.expect])).toEqual([
      ['rgb-1-negative', ['rgb-1-negative'], ['zh', 'rgb', 'negative'], { answerable: false }],
      ['rgb-2-negative', ['rgb-2-negative'], ['en', 'rgb', 'negative'], { answerable: false }],
    ]);
    const texts = set.files.map((file) => String(file.content).trim());
    // A passage listed as both positive and negative holds the answer, so it is never a negative.
    expect(texts.sort()).toEqual(
      ['The show has 12 episodes.', '《炽道》改编自同名小说。', '导演伊峥拍过《苍兰诀》。', '该剧在优酷播出。'].sort(),
    );
    expect(
      set.files.every(
        (file) =>
          file.acl?.length === 1 &&
          file.docId.startsWith(file.acl[0]!.replace('group:', '').replace('-negative', '') + '/'),
      ),
    ).toBe(true);
  });

  it('positive: the positives among all negatives, the gold answer expected; mixed keeps the negative case from the positives', async () => {
    const positive = await convertRgb(src, { variant: 'positive' });
    expect(positive.cases[0]).toMatchObject({
      id: 'rgb-1-positive',
      tags: ['zh', 'rgb', 'positive'],
      expect: { answerable: true, answer_contains: ['金晨', '王安宇'] },
    });
    expect(positive.cases[1]?.expect.answer_contains).toEqual([['Bilibili', 'B站']]);
    expect(positive.files).toHaveLength(7);
    const mixed = await convertRgb(src, { variant: 'mixed', limit: 1 });
    expect(mixed.cases.map((c) => c.id)).toEqual(['rgb-1-negative', 'rgb-1-positive']);
    const readableBy = (group: string) =>
      mixed.files.filter((file) => file.acl?.includes(`group:${group}`)).map((file) => String(file.content).trim());
    expect(readableBy('rgb-1-negative')).toHaveLength(3);
    expect(readableBy('rgb-1-negative').some((text) => text.includes('金晨'))).toBe(false);
    expect(readableBy('rgb-1-positive')).toHaveLength(5);
  });

  it('samples as RGB does: ceil(passages × noise rate) negatives, the rest positives, the same draw each time', async () => {
    const question = parseRgbQuestions(readFileSync(src, 'utf8'), src)[0]!;
    const docs = rgbCaseDocs(question, 'positive', { passages: 3, noiseRate: 0.4 });
    expect([docs.positives.length, docs.negatives.length]).toEqual([1, 2]);
    expect(rgbCaseDocs(question, 'positive', { passages: 3, noiseRate: 0.4 })).toEqual(docs);
    expect(rgbCaseDocs(question, 'negative', { passages: 2, noiseRate: 0.4 })).toMatchObject({
      positives: [],
      negatives: expect.any(Array),
    });
    expect(rgbCaseDocs(question, 'negative', { passages: 2 }).negatives).toHaveLength(2);
    // With no positive left (a noise rate of 1) there is no positive case to ask.
    expect((await convertRgb(src, { variant: 'positive', passages: 2, noiseRate: 1 })).cases).toHaveLength(0);
    await expect(convertRgb(src, { noiseRate: 2 })).rejects.toThrow(/between 0 and 1/);
  });

  it('names passages neutrally and writes them with their ACL sidecars', async () => {
    const written = await writeConvertedSet(await convertRgb(src, { variant: 'mixed' }), join(root, 'out'));
    const set = await convertRgb(src, { variant: 'mixed' });
    expect(set.files.every((file) => /^rgb-\d+\/passage-\d{2}\.txt$/.test(file.docId))).toBe(true);
    const first = set.files[0]!;
    expect(JSON.parse(readFileSync(join(written.corpusDir, `${first.docId}.acl.json`), 'utf8'))).toEqual({
      acl: first.acl,
    });
  });
});

describeWith(sharedDataset('rgb-zh'), 'the shared RGB (zh) dev sample', (dir) => {
  it('converts 150 questions either way, every gold answer found in some positive passage', async () => {
    const file = join(dir, 'zh_refine_dev.jsonl');
    const negative = await convertRgb(file, { variant: 'negative' });
    expect(negative.cases).toHaveLength(150);
    expect(negative.cases.every((c) => c.expect.answerable === false && c.tags.includes('zh'))).toBe(true);
    const questions = parseRgbQuestions(readFileSync(file, 'utf8'), file);
    const positive = await convertRgb(file, { variant: 'positive' });
    expect(positive.cases).toHaveLength(150);
    const answered = questions.filter((q) =>
      q.positive.some((passage) => scoreAnswer(rgbAnswerEntries(q.answer), passage).status === 'pass'),
    );
    expect(answered.length).toBeGreaterThanOrEqual(140);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWith, sharedDataset } from '../../testing/requirements.ts';
import { convertMtrag, mtragAnswerable, mtragDocId, parseMtragTasks } from './mtrag.ts';

const turn = (speaker: 'user' | 'agent', text: string) => ({
  speaker,
  text,
  metadata: { author_type: speaker === 'user' ? 'human' : 'model' },
});
const context = (document_id: string, text: string, title?: string) => ({
  document_id,
  text,
  ...(title ? { title } : {}),
});
const task = (
  task_id: string,
  label: string,
  contexts: ReturnType<typeof context>[],
  input: ReturnType<typeof turn>[],
  Collection = 'clapnq',
) => ({
  conversation_id: task_id.split('<::>')[0],
  task_id,
  turn: task_id.split('<::>')[1],
  contexts,
  input,
  targets: [{ speaker: 'agent', text: 'A free-form reference answer.' }],
  answerability: [label],
  Collection,
});
const PLANETS = context('822086267_1-500-0-499', 'Jupiter is the largest planet in the Solar System.', 'Jupiter');
const TASKS = [
  task('c1<::>1', 'ANSWERABLE', [PLANETS], [turn('user', 'Which planet is the largest?')]),
  task(
    'c1<::>3',
    'UNANSWERABLE',
    [],
    [
      turn('user', 'Which planet is the largest?'),
      turn('agent', 'Jupiter.'),
      turn('user', 'Who will be the first person on it?'),
    ],
  ),
  task(
    'c1<::>5',
    'PARTIAL',
    [PLANETS, context('12-0-40', 'Saturn has rings.')],
    [turn('user', 'Largest planet, and how many moons?')],
  ),
  task(
    'c2<::>1',
    'UNDERSPECIFIED',
    [context('55-0-9', 'Bonds pay coupons.')],
    [turn('user', 'What about those?')],
    'fiqa',
  ),
  task('c2<::>2', 'UNDERSPECIFIED', [], [turn('user', 'And the other one?')], 'fiqa'),
];

const root = mkdtempSync(join(tmpdir(), 'evident-mtrag-'));
const src = join(root, 'reference.jsonl');
writeFileSync(src, TASKS.map((t) => JSON.stringify(t)).join('\n'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('MTRAG converter', () => {
  it('reads the reference lines and names a line that is not a task', () => {
    expect(
      parseMtragTasks(TASKS.map((t) => JSON.stringify(t)).join('\n'), 'r.jsonl').map((t) => t.answerability),
    ).toEqual(['ANSWERABLE', 'UNANSWERABLE', 'PARTIAL', 'UNDERSPECIFIED', 'UNDERSPECIFIED']);
    expect(() => parseMtragTasks(`${JSON.stringify(TASKS[0])}\n{"task_id": "x"}`, 'bad.jsonl')).toThrow(
      /bad\.jsonl: line 2 is not an MTRAG task/,
    );
  });

  it('maps the labels: answerable and partial answer, unanswerable refuses, underspecified by its contexts unless told', () => {
    const tasks = parseMtragTasks(TASKS.map((t) => JSON.stringify(t)).join('\n'), 'r.jsonl');
    expect(tasks.map((t) => mtragAnswerable(t))).toEqual([true, false, true, true, false]);
    expect(tasks.map((t) => mtragAnswerable(t, 'unanswerable'))).toEqual([true, false, true, false, false]);
    expect(tasks.map((t) => mtragAnswerable(t, 'skip'))).toEqual([true, false, true, null, null]);
  });

  it('pools the reference contexts into one shared corpus, one document per distinct passage', async () => {
    const set = await convertMtrag(src);
    expect(set.files.map((file) => file.docId).sort()).toEqual([
      'clapnq/12-0-40.txt',
      'clapnq/822086267_1-500-0-499.txt',
      'fiqa/55-0-9.txt',
    ]);
    expect(set.files.every((file) => file.acl === undefined)).toBe(true);
    expect(set.files.find((file) => file.docId === mtragDocId('clapnq', PLANETS.document_id))?.content).toBe(
      'Jupiter\n\nJupiter is the largest planet in the Solar System.\n',
    );
    expect(mtragDocId('clap nq', 'a/b<::>c')).toBe('clap-nq/a-b-c.txt');
  });

  it('asks the last user turn with the earlier turns as history, expecting the label and the contexts as relevant docs', async () => {
    const set = await convertMtrag(src);
    const [answerable, unanswerable, partial] = set.cases;
    expect(answerable).toMatchObject({
      id: 'mtrag-c1-1',
      user: 'mtrag',
      groups: [],
      history: [],
      tags: ['mtrag', 'clapnq', 'answerable'],
      expect: { answerable: true, relevant_docs: ['clapnq/822086267_1-500-0-499.txt'] },
    });
    expect(unanswerable).toMatchObject({
      question: 'Who will be the first person on it?',
      tags: ['mtrag', 'clapnq', 'unanswerable'],
      expect: { answerable: false },
    });
    expect(unanswerable?.history).toEqual([
      { role: 'user', content: 'Which planet is the largest?' },
      { role: 'assistant', content: 'Jupiter.' },
    ]);
    expect(partial?.expect.relevant_docs).toHaveLength(2);
    expect(set.cases.map((c) => c.expect.answerable)).toEqual([true, false, true, true, false]);
    const skipped = await convertMtrag(src, { underspecified: 'skip', limit: 4 });
    expect(skipped.cases.map((c) => c.id)).toEqual(['mtrag-c1-1', 'mtrag-c1-3', 'mtrag-c1-5']);
    // The skipped turn's contexts stay in the corpus: they are passages of the collection all the same.
    expect(skipped.files).toHaveLength(3);
  });

  it('refuses a task whose last turn is not the user', async () => {
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, JSON.stringify(task('c3<::>2', 'ANSWERABLE', [], [turn('user', 'Hi'), turn('agent', 'Hello')])));
    await expect(convertMtrag(bad)).rejects.toThrow(/does not end with a user turn/);
  });
});

describeWith(sharedDataset('mtrag-un'), 'the shared MTRAG-UN dev sample', (dir) => {
  it('converts 219 turns over 469 pooled passages, every relevant doc among them', async () => {
    const set = await convertMtrag(join(dir, 'reference_dev.jsonl'));
    expect(set.cases).toHaveLength(219);
    expect(set.files).toHaveLength(469);
    const docIds = new Set(set.files.map((file) => file.docId));
    for (const evalCase of set.cases)
      for (const docId of evalCase.expect.relevant_docs ?? []) expect(docIds.has(docId), docId).toBe(true);
    expect(set.cases.filter((c) => c.expect.answerable === false)).toHaveLength(34 + 19);
  });
});

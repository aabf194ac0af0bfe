import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markdownLoader } from '../../ingest/loaders/markdown-loader.ts';
import { writeConvertedSet } from './converted-set.ts';
import { convertMusique, paragraphDocId, parseMusiqueQuestions } from './musique.ts';

const paragraph = (idx: number, title: string, text: string, supporting = false) => ({
  idx,
  title,
  paragraph_text: text,
  is_supporting: supporting,
});
const SHARED = paragraph(2, 'Vienna', 'Vienna is the capital of Austria.');
// Two questions in the HippoRAG layout; the Vienna paragraph belongs to both, and the second's hops come in reverse idx order.
const QUESTIONS = [
  {
    id: '2hop__1_2',
    question: 'Who was the first president of the association which published Journal of Psychotherapy Integration?',
    question_decomposition: [
      {
        id: 1,
        question: 'Who published the journal?',
        answer: 'American Psychological Association',
        paragraph_support_idx: 0,
      },
      { id: 2, question: 'Who was the first president of #1?', answer: 'G. Stanley Hall', paragraph_support_idx: 1 },
    ],
    answer: 'G. Stanley Hall',
    answer_aliases: ['Stanley Hall'],
    answerable: true,
    paragraphs: [
      paragraph(
        0,
        'Journal of Psychotherapy Integration',
        'It is published by the American Psychological Association.',
        true,
      ),
      paragraph(1, 'American Psychological Association', 'Its first president was G. Stanley Hall.', true),
      SHARED,
    ],
  },
  {
    id: '2hop__3_4',
    question: 'In which country is the city where Aschenbrödel was first performed?',
    question_decomposition: [
      { id: 3, question: 'Aschenbrödel >> first performed in', answer: 'Vienna', paragraph_support_idx: 1 },
      { id: 4, question: '#1 >> country', answer: 'Austria', paragraph_support_idx: 2 },
    ],
    answer: 'Austria',
    answer_aliases: [],
    answerable: true,
    paragraphs: [
      paragraph(0, 'Café Müller: "Tanztheater"', 'A distractor paragraph.'),
      paragraph(1, 'Aschenbrödel', 'Aschenbrödel was first performed in Vienna.', true),
      { ...SHARED, is_supporting: true },
    ],
  },
];

const root = mkdtempSync(join(tmpdir(), 'evident-musique-'));
const src = join(root, 'musique_train.json');
writeFileSync(src, JSON.stringify(QUESTIONS));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('MuSiQue converter', () => {
  it('reads a JSON array or JSON lines', () => {
    expect(parseMusiqueQuestions(JSON.stringify(QUESTIONS), 'q.json').map((q) => q.id)).toEqual([
      '2hop__1_2',
      '2hop__3_4',
    ]);
    expect(parseMusiqueQuestions(QUESTIONS.map((q) => JSON.stringify(q)).join('\n'), 'q.jsonl')).toHaveLength(2);
    expect(() => parseMusiqueQuestions('[{"id": "x"}]', 'bad.json')).toThrow(
      /bad\.json: question 1 is not a MuSiQue question/,
    );
  });

  it('gives each distinct paragraph one readable, stable doc id', () => {
    expect(paragraphDocId(SHARED)).toMatch(/^paragraphs\/vienna-[0-9a-f]{10}\.md$/);
    expect(paragraphDocId({ title: 'Vienna', paragraph_text: 'Another paragraph.' })).not.toBe(paragraphDocId(SHARED));
    expect(paragraphDocId({ title: 'Café Müller: "Tanztheater"', paragraph_text: 'x' })).toMatch(
      /^paragraphs\/cafe-muller-tanztheater-/,
    );
  });

  it('expects the supporting paragraphs in hop order, retrieved and cited, and the main answer contained', async () => {
    const set = await convertMusique(root);
    expect(set.files).toHaveLength(5);
    const [first, second] = set.cases;
    expect(first).toMatchObject({ id: 'musique-2hop__1_2', user: 'musique', groups: [], tags: ['musique', '2-hop'] });
    expect(first?.expect.answer_contains).toEqual(['G. Stanley Hall']);
    expect(second?.expect.relevant_docs).toEqual([
      paragraphDocId(QUESTIONS[1]!.paragraphs[1]!),
      paragraphDocId(SHARED),
    ]);
    expect(second?.expect.cite_docs).toEqual(second?.expect.relevant_docs);
    expect(set.files.every((file) => file.acl === undefined)).toBe(true);
  });

  it('with scope question, a paragraph is readable by the group of every question it belongs to', async () => {
    const set = await convertMusique(src, { scope: 'question' });
    expect(set.cases.map((c) => c.groups)).toEqual([['musique-2hop__1_2'], ['musique-2hop__3_4']]);
    expect(set.files.find((file) => file.docId === paragraphDocId(SHARED))?.acl).toEqual([
      'group:musique-2hop__1_2',
      'group:musique-2hop__3_4',
    ]);
    const limited = await convertMusique(src, { limit: 1 });
    expect([limited.cases.length, limited.files.length]).toEqual([1, 3]);
  });

  it('writes paragraphs the Markdown loader reads back with their title', async () => {
    const written = await writeConvertedSet(await convertMusique(src), join(root, 'out'));
    const docId = paragraphDocId(QUESTIONS[1]!.paragraphs[0]!);
    const loaded = await markdownLoader.load(readFileSync(join(written.corpusDir, docId)), docId);
    expect(loaded.title).toBe('Café Müller: "Tanztheater"');
    expect(loaded.blocks.map((block) => block.text).join('\n')).toContain('A distractor paragraph.');
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markdownLoader } from '../../ingest/loaders/markdown-loader.ts';
import { writeConvertedSet } from './converted-set.ts';
import { convertHotpotQa, parseHotpotQaQuestions } from './hotpotqa.ts';
import { paragraphDocId } from './musique.ts';

// Two questions in the distractor layout; "Scott Derrickson" is a paragraph of both.
const DERRICKSON: [string, string[]] = [
  'Scott Derrickson',
  ['Scott Derrickson (born July 16, 1966) is an American director.', ' He lives in Los Angeles.'],
];
const QUESTIONS = [
  {
    _id: '5a8b57f25542995d1e6f1371',
    question: 'Were Scott Derrickson and Ed Wood of the same nationality?',
    answer: 'yes',
    type: 'comparison',
    level: 'hard',
    supporting_facts: [
      ['Scott Derrickson', 0],
      ['Ed Wood', 0],
    ],
    context: [
      DERRICKSON,
      ['Ed Wood', ['Edward Davis Wood Jr. was an American filmmaker.']],
      ['Doctor Strange', ['A 2016 film.']],
    ],
  },
  {
    _id: 'q2',
    question: 'Which city does the director of Sinister live in?',
    answer: 'Los Angeles',
    supporting_facts: [
      ['Sinister (film)', 0],
      ['Scott Derrickson', 1],
      ['Missing title', 0],
    ],
    context: [['Sinister (film)', ['Sinister is a 2012 film directed by Scott Derrickson.']], DERRICKSON],
  },
];

const root = mkdtempSync(join(tmpdir(), 'evident-hotpotqa-'));
const src = join(root, 'hotpot_dev_distractor_v1.json');
writeFileSync(src, JSON.stringify(QUESTIONS));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('HotpotQA converter', () => {
  it('reads the distractor array (or JSON lines) and names a question that is not one', () => {
    expect(parseHotpotQaQuestions(readFileSync(src, 'utf8'), src).map((q) => q._id)).toEqual([
      '5a8b57f25542995d1e6f1371',
      'q2',
    ]);
    expect(parseHotpotQaQuestions(QUESTIONS.map((q) => JSON.stringify(q)).join('\n'), 'q.jsonl')).toHaveLength(2);
    expect(() => parseHotpotQaQuestions('[{"_id": "x", "question": "q"}]', 'bad.json')).toThrow(
      /bad\.json: question 1 is not a HotpotQA question/,
    );
  });

  it('expects the supporting paragraphs retrieved and cited and the answer contained, each question in its own corpus', async () => {
    const set = await convertHotpotQa(src);
    expect(set.files).toHaveLength(4);
    const derrickson = paragraphDocId({ title: DERRICKSON[0], paragraph_text: DERRICKSON[1].join('') });
    const [first, second] = set.cases;
    expect(first).toMatchObject({
      id: 'hotpotqa-5a8b57f25542995d1e6f1371',
      groups: ['hotpotqa-5a8b57f25542995d1e6f1371'],
      tags: ['hotpotqa', 'comparison', 'hard'],
      expect: { answerable: true, answer_contains: ['yes'] },
    });
    expect(first?.expect.relevant_docs).toHaveLength(2);
    // A supporting fact naming a title the context lacks is dropped rather than expected.
    expect(second?.expect.relevant_docs).toEqual([
      paragraphDocId({
        title: 'Sinister (film)',
        paragraph_text: 'Sinister is a 2012 film directed by Scott Derrickson.',
      }),
      derrickson,
    ]);
    expect(second?.expect.cite_docs).toEqual(second?.expect.relevant_docs);
    expect(set.files.find((file) => file.docId === derrickson)?.acl).toEqual([
      'group:hotpotqa-5a8b57f25542995d1e6f1371',
      'group:hotpotqa-q2',
    ]);
    const shared = await convertHotpotQa(src, { scope: 'shared', limit: 1 });
    expect([shared.cases.length, shared.files.length, shared.cases[0]?.groups]).toEqual([1, 3, []]);
  });

  it('writes paragraphs the Markdown loader reads back with their title and sentences', async () => {
    const written = await writeConvertedSet(await convertHotpotQa(src), join(root, 'out'));
    const docId = paragraphDocId({ title: DERRICKSON[0], paragraph_text: DERRICKSON[1].join('') });
    const loaded = await markdownLoader.load(readFileSync(join(written.corpusDir, docId)), docId);
    expect(loaded.title).toBe('Scott Derrickson');
    expect(loaded.blocks.map((block) => block.text).join('\n')).toContain('director. He lives in Los Angeles.');
  });
});

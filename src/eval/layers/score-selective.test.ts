import { describe, expect, it } from 'vitest';
import type { AnswerEntry } from './score-answer.ts';
import { answerHead, candidateSegments, containsGold, firstSentence, scoreSelective } from './score-selective.ts';

const graded = (question: string, gold: AnswerEntry[], answerText: string) =>
  scoreSelective({ question, answerable: true, gold, answerText, refused: false, confidence: 0.9 });

describe('the answer head', () => {
  it.each([
    ['12. BERT-BASE has 12 layers (L=12). [1] (Offline answer: quoted.)', '12. BERT-BASE has 12 layers (L=12).'],
    [
      'The result is 86.3. From the row: Test: 86.3. [1] (offline: computed by table_query) SQL: …',
      'The result is 86.3. From the row: Test: 86.3.',
    ],
    ['It is 4 days. Then more text', 'It is 4 days'],
    ['(Offline answer: none) 84.6/83.4, 86.7/85.9', '84.6/83.4, 86.7/85.9'],
    ['Zhu et al. report 800M words. Later.', 'Zhu et al. report 800M words'],
    ['成立于2009年。后来', '成立于2009年'],
  ])('%s → %s', (answer, head) => {
    expect(answerHead(answer)).toBe(head);
  });

  it('reads the first sentence without cutting decimals or abbreviations', () => {
    expect(firstSentence('86.7 on MNLI. Second.')).toBe('86.7 on MNLI');
    expect(firstSentence('e.g. GELU is used')).toBe('e.g. GELU is used');
    // A place word or title before a name ends no sentence.
    expect(firstSentence('The first loss came against St. Louis Cardinals. From the row: …')).toBe(
      'The first loss came against St. Louis Cardinals',
    );
    expect(firstSentence('Dr. Ruiz signed it. Then more')).toBe('Dr. Ruiz signed it');
  });
});

describe('scoreSelective: strict right and wrong', () => {
  it.each<[string, string, AnswerEntry[], string, boolean]>([
    // A list of candidates of which one is the gold is wrong.
    [
      'list of words counts',
      'How many words of English Wikipedia were used for pre-training?',
      ['2,500M'],
      '800M words, 2015, 2,500M words. For the pre-training corpus we use the BooksCorpus (800M words) (Zhu et al., 2015) and English Wikipedia (2,500M words). [1]',
      false,
    ],
    ['two models’ scores', 'What MultiNLI accuracy does BERT reach?', ['86.7'], '84.6/83.4, 86.7/85.9', false],
    ['zh candidates', '这支球队有多少名球员？', ['12人'], '一座, 12人, 一起. 球队共有12人。[1]', false],
    ['zh full-width separators', '这支球队有多少名球员？', ['12人'], '一座，12人；一起 [1]', false],
    ['or-list', 'Which activation function does BERT use?', [['gelu', 'GELU']], 'GELU, ReLU or tanh [1]', false],
    [
      'slash between words',
      'Which activation function does BERT use?',
      [['gelu', 'GELU']],
      'ReLU/GELU/tanh [1]',
      false,
    ],
    // Digits around a slash are one value (84.6/83.4), not two segments.
    ['slash between digits', 'What MultiNLI accuracy does BERT reach?', ['86.7'], '86.7/85.9 [1]', true],
    // One value, with the quote that supports it after it.
    [
      'value then quote',
      'How many layers (Transformer blocks) does BERT-BASE have?',
      ['12'],
      '12. BERT-BASE has 12 layers, hidden size 768 and 12 heads [1] (Offline answer: sentences quoted.)',
      true,
    ],
    [
      'value then quote with other numbers',
      'How many words of English Wikipedia were used for pre-training?',
      ['2,500M'],
      '2,500M words. For the pre-training corpus we use the BooksCorpus (800M words) (Zhu et al., 2015) and English Wikipedia (2,500M words). [1]',
      true,
    ],
    // One clause of context beside the value is not a list: a list needs two segments with values of their own.
    ['one context clause', 'How many layers does BERT-BASE have?', ['12'], '12 layers, see Table 1 [1]', true],
    ['repeats the gold', 'How many layers does BERT-BASE have?', ['12'], 'BERT-BASE has 12 layers (L=12) [1]', true],
    [
      'thousands grouping',
      'How large is the vocabulary?',
      [['30,000', '30000']],
      'A 30,000 token vocabulary [1]',
      true,
    ],
    [
      'the same number with a magnitude',
      'For how many steps was BERT pre-trained?',
      [['1,000,000', '1000000']],
      '1M steps. BERT was trained for 1M steps [1]',
      true,
    ],
    ['a magnitude word', 'How many words?', ['2,500M'], 'About 2.5 billion words [1]', true],
    ['another magnitude', 'For how many steps?', [['1,000,000', '1000000']], '1B steps [1]', false],
    ['zh one value', '这支球队有多少名球员？', ['12人'], '这支球队共有12人。[1]', true],
    ['percent read off the quote', 'What percentage is masked?', ['15%'], '15. We mask 15% of all tokens [1]', true],
    // The gold only in a later quote, or a different value given: wrong.
    [
      'row count',
      'How many layers does BERT-BASE have?',
      ['12'],
      'The count where System = BERT BASE is 1. From the row: System: BERT BASE [1] … 12 layers',
      false,
    ],
    [
      'other value first',
      'How many steps?',
      [['1,000,000', '1000000']],
      'The result is 1. From the row: 1,000,000 steps. [1]',
      false,
    ],
    [
      'a year, not the value',
      'How long did pre-training of BERT-LARGE take?',
      ['4 days'],
      '2015; 2015. It took 4 days [1]',
      false,
    ],
    ['answer without the gold', 'What is the hidden size?', ['1024'], 'It is 768 [1]', false],
  ])('%s', (_name, question, gold, answer, right) => {
    const result = graded(question, gold, answer);
    expect(result.detail).toBeTruthy();
    expect({ right: result.right, wrong: result.wrong }).toEqual({ right, wrong: !right });
  });

  it('reads numbers by value, not by spelling', () => {
    expect(containsGold('trained for 1M steps', '1,000,000')).toBe(true);
    expect(containsGold('110 million parameters', '110M')).toBe(true);
    expect(containsGold('trained for 10M steps', '1,000,000')).toBe(false);
    expect(containsGold('about 1.5 m tall', 'GELU')).toBe(false);
    expect(candidateSegments('1M steps, 2,500M words', [['1,000,000']], 'How many steps?')).toEqual(['2,500M words']);
  });

  it('names the candidates it found', () => {
    expect(candidateSegments('800M words, 2015, 2,500M words', ['2,500M'], 'How many words?')).toEqual([
      '800M words',
      '2015',
    ]);
    expect(candidateSegments('2,500M words', ['2,500M'], 'How many words?')).toEqual([]);
  });
});

describe('scoreSelective: answered, refused and ungraded', () => {
  const base = { question: 'Q?', answerText: 'It is 42.', confidence: 0.7 };
  it.each([
    ['answered an unanswerable', { answerable: false, gold: undefined, refused: false }, 'refuse', true, false, true],
    ['refused an unanswerable', { answerable: false, gold: undefined, refused: true }, 'refuse', false, null, false],
    ['refused an answerable', { answerable: true, gold: ['42'], refused: true }, 'answer', false, false, false],
    ['gold without answerable', { answerable: undefined, gold: ['42'], refused: false }, 'answer', true, true, false],
    ['answerable, no gold', { answerable: true, gold: undefined, refused: false }, 'answer-ungraded', true, null, null],
    ['no expectation', { answerable: undefined, gold: undefined, refused: false }, null, true, null, null],
    ['waiting for approval', { answerable: true, gold: ['42'], refused: null }, 'answer', null, null, null],
  ] as const)('%s', (_name, input, expected, answered, right, wrong) => {
    const result = scoreSelective({ ...base, ...input, gold: input.gold ? [...input.gold] : undefined });
    expect(result).toMatchObject({ expected, answered, right, wrong, confidence: 0.7 });
  });
});

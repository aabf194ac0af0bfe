import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { TableSqlPlan } from '../../table-sql/table-question-to-sql.ts';
import type { TableSchema } from '../../table-sql/table-schemas.ts';
import { OFFLINE_LABEL } from '../../offline-qa/extractive-answer.ts';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';
import { rowCells } from './row-answer.ts';
import { planFits } from './table-fit.ts';

const rows = (id: string, lines: string[]): Evidence => evidenceChunk(id, lines.join('\n'));
const ships = rows('ships.csv#0', [
  'Hull: № 3 | Original Name: Princess Teguise | Original Operator: Naviera Armas | Delivery: Jan 1990',
  'Hull: № 4 | Original Name: Princess Dacil | Original Operator: Trasmediterranea | Delivery: Mar 1990',
]);
const divers = rows('divers.csv#0', [
  'Rank: 13 | Diver: Ann Fargher (NZL) | Preliminary Points: 421.65',
  'Rank: 14 | Diver: Jane Roe (AUS) | Preliminary Points: 410.10',
]);
const line = (chunk: Evidence, index: number): string => chunk.text.split('\n')[index] as string;
const cite = citeIn;
const answer = proposedAnswer;
const offline = (head: string, chunk: Evidence, index: number): Answer =>
  answer(`${head}. ${line(chunk, index)} [1] ${OFFLINE_LABEL}`, [cite(chunk, line(chunk, index))]);

describe('the evidence gate on answers quoted from table rows', () => {
  it('reads the cells of a stored row line', () => {
    expect(rowCells('Hull: № 4 | Original Name: Princess Dacil')).toEqual([
      { column: 'Hull', value: '№ 4' },
      { column: 'Original Name', value: 'Princess Dacil' },
    ]);
  });

  it('narrows a quoted row to the cell of the asked column, in the row that names what is asked', () => {
    const decision = gateAnswer({
      question: 'who is the original operator of princess dacil?',
      answer: offline('2nd operator', ships, 1),
      evidence: [ships],
      reground: true,
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toMatch(/^Trasmediterranea\. /u);
    expect(decision.answer.citations[0]?.quote).toBe(line(ships, 1));
  });

  it('lets a model answer that gives the asked cell stand, and names what a bracketed aside leaves out', () => {
    const decision = gateAnswer({
      question: 'how many points did ann fargher have?',
      answer: answer('421.65 [1]', [cite(divers, line(divers, 0))]),
      evidence: [divers],
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toBe('421.65 [1]');
  });

  it('refuses a cell of another column than the one asked', () => {
    const decision = gateAnswer({
      question: 'when was princess dacil delivered?',
      answer: answer('Trasmediterranea [1]', [cite(ships, line(ships, 1))]),
      evidence: [ships],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it('holds a question the run split into needs, answered with a whole quoted row, to what one row states', () => {
    // Each need finds a value in the row (points, a comparison), but a row is no answer to "above or below".
    const decision = gateAnswer({
      question: 'were the preliminary points of ann fargher above or below those of jane roe?',
      answer: offline(line(divers, 0), divers, 0),
      evidence: [divers],
      reground: true,
      needs: ['What were the preliminary points of ann fargher?', 'Were they above or below those of jane roe?'],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it('refuses an offline row about something else than what the question names', () => {
    const decision = gateAnswer({
      question: 'who is the original operator of princess fataga?',
      answer: offline('Trasmediterranea', ships, 1),
      evidence: [ships],
      reground: true,
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information.join(' ')).toMatch(/no cited row names/u);
  });

  it.each([
    ['which diver had the most preliminary points?', 'a superlative over rows'],
    ['which diver is listed after ann fargher?', 'an order of rows'],
    ['how many divers scored above 400 points?', 'a count of rows'],
    ['did ann fargher score more than jane roe?', 'a yes/no comparison'],
  ])('refuses an offline quote for %s: %s is computed over rows, not stated by one', (question) => {
    const decision = gateAnswer({
      question,
      answer: offline('Ann Fargher (NZL)', divers, 0),
      evidence: [divers],
      reground: true,
    });
    expect(decision.verdict).toBe('refuse');
  });

  it("lets a model's cell stand in the row naming what is asked, not in a neighbour's row", () => {
    const question = 'what rank did ann fargher finish at?';
    const own = gateAnswer({
      question,
      answer: answer('13 [1]', [cite(divers, line(divers, 0)), cite(divers, line(divers, 1))]),
      evidence: [divers],
    });
    expect(own.reason).toBe('row: Rank');
    const neighbour = gateAnswer({
      question,
      answer: answer('14 [1]', [cite(divers, line(divers, 0)), cite(divers, line(divers, 1))]),
      evidence: [divers],
    });
    expect(neighbour.reason).not.toMatch(/^row:/u);
  });

  it('leaves the table route its own answers: its rows are the ones its SQL selected', () => {
    const decision = gateAnswer({
      question: 'which diver had the most preliminary points?',
      answer: answer('The Diver with the highest Preliminary Points is Ann Fargher (NZL). [1]', [
        cite(divers, line(divers, 0)),
      ]),
      evidence: [divers],
      fromTable: true,
    });
    expect(decision.verdict).not.toBe('refuse');
  });
});

const table = (columns: [string, 'text' | 'integer'][], values: Record<string, string[]>): TableSchema => ({
  docId: 'films.csv',
  title: 'films.csv',
  sqlName: 'films',
  columns: columns.map(([name, type]) => ({ name, type })),
  rowCount: 10,
  values,
});
const plan = (shape: TableSqlPlan['aggregate'], rest: Partial<TableSqlPlan> = {}): TableSqlPlan => ({
  sql: 'SELECT 1',
  table: 'films',
  aggregate: shape,
  filters: [],
  score: 1,
  ...rest,
});

describe('whether a table plan answers the question', () => {
  const films = table(
    [
      ['Year', 'integer'],
      ['Film', 'text'],
      ['Label', 'text'],
    ],
    { Year: ['1991', '1996', '2003', '2013'], Film: ['Europa', 'Dogville'], Label: ['Spring', 'Becket'] },
  );

  it('refuses a comparison every row passes: "at least two films" is no Year >= 2', () => {
    const fit = planFits(
      'in what years did von trier make at least two films?',
      plan('lookup', { filters: [{ columns: ['Year'], op: '>=', values: [2] }] }),
      films,
    );
    expect(fit.fits).toBe(false);
    expect(
      planFits(
        'which films came out after 2000?',
        plan('lookup', { filters: [{ columns: ['Year'], op: '>', values: [2000] }] }),
        films,
      ).fits,
    ).toBe(true);
  });

  it('counts values for "the most" of the rows or a column of names, not for a measure the table lacks', () => {
    expect(planFits('which label appears the most?', plan('mode', { target: 'Label' }), films).fits).toBe(true);
    expect(planFits('which label has the most films?', plan('mode', { target: 'Label' }), films).fits).toBe(true);
    expect(
      planFits('which label put out the most films according to this list?', plan('mode', { target: 'Label' }), films)
        .fits,
    ).toBe(true);
    const time = planFits('which label took the least amount of time?', plan('antimode', { target: 'Label' }), films);
    expect(time.fits).toBe(false);
    expect(time.why).toMatch(/time/u);
  });
});

describe('the evidence gate on a question of several needs', () => {
  const term = rows('msa.md#0', []);
  term.text =
    'Under CT-2023-0077 the initial term is 24 months from 1 September 2023. Obligations last three years from the date of disclosure.';
  it('narrows an answer that lists more values than the question has needs to the value tied to each', () => {
    const question = 'When did the initial term of CT-2023-0077 start, and how long does it last?';
    const cited = [cite(term, 'Under CT-2023-0077 the initial term is 24 months from 1 September 2023.')];
    const listed = gateAnswer({
      question,
      answer: answer('1 September 2023; three years, 90 days; 3 March 2024. [1]', cited),
      evidence: [term],
      needs: [
        'When did the initial term of CT-2023-0077 start?',
        'How long does the initial term of CT-2023-0077 last?',
      ],
    });
    expect(listed.verdict).toBe('answer');
    expect(listed.answer.answer).toMatch(/^1 September 2023; 24 months\. /u);
    const needs = [
      'When did the initial term of CT-2023-0077 start?',
      'How long does the initial term of CT-2023-0077 last?',
    ];
    const one = gateAnswer({
      question,
      answer: answer('1 September 2023; 24 months. [1]', cited),
      evidence: [term],
      needs,
    });
    expect(one.verdict).toBe('answer');
  });

  it('refuses half an answer: a need the cited evidence does not tie is named as missing', () => {
    const question = 'When did the initial term of CT-2023-0077 start, and what is its termination fee?';
    const cited = [cite(term, 'Under CT-2023-0077 the initial term is 24 months from 1 September 2023.')];
    const half = gateAnswer({
      question,
      answer: answer('1 September 2023. [1]', cited),
      evidence: [term],
      needs: ['When did the initial term of CT-2023-0077 start?', 'What is the termination fee of CT-2023-0077?'],
    });
    expect(half.verdict).toBe('refuse');
    expect(half.answer.missing_information.join(' ')).toContain('"What is the termination fee of CT-2023-0077?"');
  });
});

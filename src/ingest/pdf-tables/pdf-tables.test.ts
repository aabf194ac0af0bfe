import { describe, expect, it } from 'vitest';
import type { Block, LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { buildPdf, pdfTableLines, type PdfLine } from '../../testing/pdf-builder.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { pdfLoader } from '../loaders/pdf-loader.ts';

const load = (pages: readonly (readonly PdfLine[])[]): Promise<LoadedDocument> =>
  pdfLoader.load(buildPdf(pages), '/docs/report.pdf');
const rows = (doc: LoadedDocument): Extract<Block, { kind: 'row' }>[] =>
  doc.blocks.filter((block): block is Extract<Block, { kind: 'row' }> => block.kind === 'row');
const prose = (doc: LoadedDocument): string =>
  doc.blocks
    .filter((block) => block.kind === 'text')
    .map((block) => block.text)
    .join('\n');

const INTRO: PdfLine[] = [
  { text: 'Quarterly report', size: 18, bold: true },
  { text: 'Sales grew in every region this quarter, as the table below shows.', gapBefore: 6 },
];

describe('PDF tables from the text layer', () => {
  it('keeps a simple grid as a typed table with its caption, page and header repeated in every row chunk', async () => {
    const doc = await load([
      [
        ...INTRO,
        { text: 'Table 1: Sales by region', x: 72, y: 690 },
        ...pdfTableLines(
          [
            ['Region', 'Units', 'Revenue'],
            ['North', '120', '4.5'],
            ['South', '80', '3.25'],
            ['East', '95', '2.0'],
          ],
          { columns: [72, 200, 300], top: 670 },
        ),
        { text: 'The north led, and the east lagged behind the others.', y: 600 },
      ],
    ]);
    expect(doc.tables).toEqual([
      {
        title: 'report / page 1 / Table 1',
        description: 'Table 1: Sales by region',
        columns: [
          { name: 'Region', type: 'text' },
          { name: 'Units', type: 'integer' },
          { name: 'Revenue', type: 'real' },
        ],
        rows: [
          ['North', 120, 4.5],
          ['South', 80, 3.25],
          ['East', 95, 2],
        ],
      },
    ]);
    const row = (text: string) => ({
      kind: 'row',
      text,
      page: 1,
      table: 'report / page 1 / Table 1',
      cells: expect.any(Array),
    });
    expect(rows(doc)).toEqual([
      row('Region: North | Units: 120 | Revenue: 4.5'),
      row('Region: South | Units: 80 | Revenue: 3.25'),
      row('Region: East | Units: 95 | Revenue: 2'),
    ]);
    // Each cell's box starts at its column's left edge and spans its row's baseline: where its ink is.
    const cells = rows(doc).map((block) => block.cells ?? []);
    expect(cells.map((boxes) => boxes.map(([x0]) => x0))).toEqual([
      [72, 200, 300],
      [72, 200, 300],
      [72, 200, 300],
    ]);
    const baselines = [656, 642, 628];
    cells.forEach((boxes, r) => {
      for (const [, y0, x1, y1] of boxes) {
        expect(y0).toBeLessThan(baselines[r]!);
        expect(y1).toBeGreaterThan(baselines[r]! + 5);
        expect(x1).toBeGreaterThan(72);
      }
    });
    const text = prose(doc);
    // The line `table_query` cites for an answer over all rows, and the caption for retrieval.
    expect(text).toContain('report / page 1 / Table 1 — columns: Region, Units, Revenue');
    expect(text).toContain('Table 1: Sales by region (page 1)');
    // The table's cells are in its rows, not run together into a paragraph; the prose around it stays.
    expect(text).not.toMatch(/North\s+120/);
    expect(text).toContain('Sales grew in every region this quarter');
    expect(text).toContain('The north led, and the east lagged behind the others.');
  });

  it('names columns under a merged header: a group header across two columns and a header set on two lines', async () => {
    const doc = await load([
      [
        ...INTRO,
        // "Accuracy (percent)" spans the Dev and Test columns; "Cost" and "(USD)" are one header on two lines.
        { text: 'Accuracy (percent)', x: 200, y: 690 },
        { text: 'Cost', x: 340, y: 690 },
        ...pdfTableLines(
          [
            ['Model', 'Dev', 'Test', '(USD)'],
            ['Small', '81.2', '80.9', '12'],
            ['Base', '84.6', '83.4', '40'],
            ['Large', '86.7', '85.9', '150'],
          ],
          { columns: [72, 200, 260, 340], top: 676 },
        ),
      ],
    ]);
    expect(doc.tables?.map((table) => table.columns)).toEqual([
      [
        { name: 'Model', type: 'text' },
        { name: 'Accuracy (percent) Dev', type: 'real' },
        { name: 'Accuracy (percent) Test', type: 'real' },
        { name: 'Cost (USD)', type: 'integer' },
      ],
    ]);
    expect(doc.tables?.[0]?.rows).toEqual([
      ['Small', 81.2, 80.9, 12],
      ['Base', 84.6, 83.4, 40],
      ['Large', 86.7, 85.9, 150],
    ]);
    expect(doc.tables?.[0]?.title).toBe('report / page 1 / table 1');
  });

  it('takes a lone cell over the value columns as their group header, but not a heading over the labels', async () => {
    const grid = [
      ['Model', 'Dev', 'Test'],
      ['Small', '81.2', '80.9'],
      ['Large', '86.7', '85.9'],
      ['Huge', '88.1', '87.0'],
    ];
    const doc = await load([
      [
        ...INTRO,
        { text: 'Accuracy (percent)', x: 200, y: 690 },
        ...pdfTableLines(grid, { columns: [72, 200, 260], top: 676 }),
        { text: 'Results', x: 72, y: 560 },
        ...pdfTableLines(grid, { columns: [72, 200, 260], top: 546 }),
      ],
    ]);
    expect(doc.tables?.map((table) => table.columns.map((column) => column.name))).toEqual([
      ['Model', 'Accuracy (percent) Dev', 'Accuracy (percent) Test'],
      ['Model', 'Dev', 'Test'],
    ]);
    expect(prose(doc)).toContain('Results');
  });

  it('reads numbers with units as numbers, the unit in the column name; a column of mixed units stays text', async () => {
    const doc = await load([
      [
        ...INTRO,
        ...pdfTableLines(
          [
            ['Item', 'Price', 'Weight', 'Share', 'Latency', 'Stock'],
            ['Bolt', '$1,250.50', '3.5 kg', '45%', '5 ms', '-'],
            ['Nut', '$980.00', '0.2 kg', '30%', '2 s', '1,200'],
            ['Gear', '$12.00', '12 kg', '25%', '40 ms', '35'],
          ],
          { columns: [72, 140, 230, 300, 360, 430], top: 690 },
        ),
      ],
    ]);
    const table = doc.tables?.[0];
    expect(table?.columns).toEqual([
      { name: 'Item', type: 'text' },
      { name: 'Price ($)', type: 'real' },
      { name: 'Weight (kg)', type: 'real' },
      { name: 'Share (%)', type: 'integer' },
      { name: 'Latency', type: 'text' },
      { name: 'Stock', type: 'integer' },
    ]);
    expect(table?.rows).toEqual([
      ['Bolt', 1250.5, 3.5, 45, '5 ms', null],
      ['Nut', 980, 0.2, 30, '2 s', 1200],
      ['Gear', 12, 12, 25, '40 ms', 35],
    ]);
    // The stored value is what the row line says, so an answer computed in SQL can cite the line.
    expect(rows(doc)[0]?.text).toBe(
      'Item: Bolt | Price ($): 1250.5 | Weight (kg): 3.5 | Share (%): 45 | Latency: 5 ms',
    );
  });

  const header = ['Date', 'Station', 'Rain (mm)', 'Wind'];
  const firstHalf = [
    ['2024-01-01', 'Oslo', '3.2', '12'],
    ['2024-01-02', 'Oslo', '0.0', '8'],
    ['2024-01-03', 'Bergen', '14.5', '20'],
  ];
  const secondHalf = [
    ['2024-01-04', 'Bergen', '9.1', '17'],
    ['2024-01-05', 'Tromso', '1.4', '25'],
  ];
  const columns = [72, 170, 260, 340];

  it.each([
    ['the header repeats on the next page', [header, ...secondHalf]],
    ['the columns line up on the next page', secondHalf],
  ])('joins a table that goes on over two pages into one table when %s', async (_, continued) => {
    const doc = await load([
      [
        ...INTRO,
        { text: 'Table 2: Daily weather', y: 200 },
        ...pdfTableLines([header, ...firstHalf], { columns, top: 180 }),
      ],
      [
        ...pdfTableLines(continued, { columns, top: 740 }),
        { text: 'Rain was heaviest on the west coast in the first week.', y: 600 },
      ],
    ]);
    expect(doc.tables).toHaveLength(1);
    const table = doc.tables![0]!;
    expect(table.title).toBe('report / page 1 / Table 2');
    expect(table.columns.map((column) => `${column.name}:${column.type}`)).toEqual([
      'Date:text',
      'Station:text',
      'Rain (mm):real',
      'Wind:integer',
    ]);
    expect(table.rows.map((row) => row[0])).toEqual([
      '2024-01-01',
      '2024-01-02',
      '2024-01-03',
      '2024-01-04',
      '2024-01-05',
    ]);
    // Each row chunk carries the page it is printed on; blocks stay in page order, and the rows that open page 2
    // come before its paragraph, as they are read.
    expect(rows(doc).map((row) => row.page)).toEqual([1, 1, 1, 2, 2]);
    const pages = doc.blocks.map((block) => block.page ?? 0);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(doc.blocks.slice(-3).map((block) => block.kind)).toEqual(['row', 'row', 'text']);
    expect(prose(doc)).not.toContain('Date Station');
  });

  it('keeps two tables on consecutive pages apart when the second has its own caption', async () => {
    const doc = await load([
      [...INTRO, ...pdfTableLines([header, ...firstHalf], { columns, top: 180 })],
      [{ text: 'Table 3: More weather', y: 760 }, ...pdfTableLines([header, ...secondHalf], { columns, top: 740 })],
    ]);
    expect(doc.tables?.map((table) => [table.title, table.rows.length])).toEqual([
      ['report / page 1 / table 1', 3],
      ['report / page 2 / Table 3', 2],
    ]);
  });

  it('reads each column of a two-column page: tables side by side, a table beside prose, captions over lines', async () => {
    const prose = [
      'The results show that the larger model',
      'wins on every task we measured, and',
      'the smaller one is close behind it on',
      'most of them; both beat the baseline.',
      'We also tried two further settings.',
      'Neither changed the ranking above.',
      'Short lines end paragraphs here.',
      'the best one.',
      'The appendix lists every run we did',
      'with its seed and its learning rate,',
      'so that each result can be checked.',
      'Training took two days on one host.',
    ];
    const doc = await load([
      [
        // An author block: names set in a row across the page are not a table's header.
        ...['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra'].map((text, index) => ({
          text,
          x: 72 + index * 120,
          y: 760,
        })),
        ...pdfTableLines(
          [
            ['Model', 'Dev', 'Test'],
            ['Small', '81.2', '80.4'],
            ['Base', '84.6', '83.9'],
            ['Large', '86.7', '85.9'],
          ],
          { columns: [72, 170, 230], top: 700 },
        ),
        { text: 'Table 1: Scores on the dev and test', x: 72, y: 630, size: 10 },
        { text: 'sets, averaged over five seeds.', x: 72, y: 618, size: 10 },
        ...pdfTableLines(
          [
            ['Setting', 'Steps', 'Loss'],
            ['Warm', '1000', '2.31'],
            ['Cold', '2000', '2.05'],
            ['Mixed', '4000', '1.87'],
          ],
          { columns: [320, 420, 480], top: 700 },
        ),
        { text: 'Table 2: Training settings.', x: 320, y: 630, size: 10 },
        ...prose.map((text, index) => ({ text, x: 72, y: 590 - index * 13 })),
        // The right column's table sits beside prose whose short last line would be a fourth cell of its rows.
        ...pdfTableLines(
          [
            ['Task', 'Before', 'After'],
            ['NER', '91.0', '92.8'],
            ['QA', '88.5', '90.9'],
            ['NLI', '84.1', '86.7'],
          ],
          { columns: [320, 420, 480], top: 590 },
        ),
        { text: 'Table 3: Before and after tuning.', x: 320, y: 520, size: 10 },
        ...prose.map((text, index) => ({ text, x: 320, y: 490 - index * 13 })),
      ],
    ]);
    expect(doc.tables?.map((table) => [table.title, table.columns.map((column) => column.name), table.rows])).toEqual([
      [
        'report / page 1 / Table 1',
        ['Model', 'Dev', 'Test'],
        [
          ['Small', 81.2, 80.4],
          ['Base', 84.6, 83.9],
          ['Large', 86.7, 85.9],
        ],
      ],
      [
        'report / page 1 / Table 2',
        ['Setting', 'Steps', 'Loss'],
        [
          ['Warm', 1000, 2.31],
          ['Cold', 2000, 2.05],
          ['Mixed', 4000, 1.87],
        ],
      ],
      [
        'report / page 1 / Table 3',
        ['Task', 'Before', 'After'],
        [
          ['NER', 91, 92.8],
          ['QA', 88.5, 90.9],
          ['NLI', 84.1, 86.7],
        ],
      ],
    ]);
    // The caption's second line belongs to it: the table's first text block says it whole.
    expect(doc.blocks.map((block) => block.text)).toContain(
      'Table 1: Scores on the dev and test sets, averaged over five seeds. (page 1)',
    );
  });

  it('finds no table in two-column prose, a bulleted list, a numbered list or a key-value list', async () => {
    const left = [
      'Retrieval augmented generation grounds',
      'an answer in passages that the system',
      'finds in its own index of documents,',
      'so every claim can point at its source.',
      'The reader checks the quote against it.',
    ];
    const right = [
      'Permissions are applied before ranking,',
      'which means a passage the user may not',
      'read never reaches the model at all and',
      'cannot leak through an answer or a log.',
      'Every step is recorded for later audit.',
    ];
    const doc = await load([
      [
        ...INTRO,
        ...left.flatMap((text, index) => [
          { text, x: 72, y: 690 - index * 13 },
          { text: right[index]!, x: 320, y: 690 - index * 13 },
        ]),
        ...['- apples, pears and plums', '- oats, rye and barley', '- milk, butter and cheese'].map((text, index) => ({
          text,
          x: 90,
          y: 580 - index * 13,
        })),
        ...['1.', '2.', '3.'].flatMap((number, index) => [
          { text: number, x: 72, y: 520 - index * 13 },
          {
            text: ['Open the file menu', 'Choose export as PDF', 'Save it to the shared folder'][index]!,
            x: 100,
            y: 520 - index * 13,
          },
        ]),
        ...[
          ['Owner:', 'Finance team'],
          ['Status:', 'Draft'],
          ['Due:', 'Friday'],
        ].flatMap(([key, value], index) => [
          { text: key!, x: 72, y: 460 - index * 13 },
          { text: value!, x: 160, y: 460 - index * 13 },
        ]),
      ],
    ]);
    expect(doc.tables).toBeUndefined();
    expect(rows(doc)).toEqual([]);
    expect(prose(doc)).toContain('Retrieval augmented generation grounds');
    expect(prose(doc)).toContain('Choose export as PDF');
  });

  it('fails a PDF whose table is over the table limits with the limit named', async () => {
    const grid = [
      ['Id', 'A', 'B'],
      ...Array.from({ length: 30 }, (_, index) => [`r${index}`, String(index), String(index * 2)]),
    ];
    const bytes = buildPdf([[...pdfTableLines(grid, { columns: [72, 150, 230], top: 760, leading: 12, size: 9 })]]);
    const error = await pdfLoader
      .load(bytes, '/docs/big.pdf', { ...INGEST_DEFAULTS, maxTableCells: 50 })
      .catch((caught: unknown) => caught);
    expect(IngestError.isInstance(error)).toBe(true);
    expect((error as IngestError).message).toMatch(/big\.pdf/);
    expect((error as IngestError).details).toMatchObject({ setting: 'ingest.maxTableCells', limit: '50 cells' });
  });
});

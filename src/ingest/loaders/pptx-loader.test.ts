import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { buildPptx, pptxChartSeries, pptxShape } from '../../testing/pptx-builder.ts';
import { writeZip } from '../../testing/zip-writer.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { pptxLoader } from './pptx-loader.ts';

const limits = (overrides: Partial<IngestLimits>): IngestLimits => ({ ...INGEST_DEFAULTS, ...overrides });

describe('pptxLoader', () => {
  it('reads slides in the order of the slide list, with titles, text, tables and speaker notes, each at its slide', async () => {
    // Stored as slide3.xml, slide1.xml, slide2.xml: the deck's order is the list's, not the file names'.
    const deck = buildPptx([
      {
        file: 3,
        title: 'Quarterly review',
        body: ['Revenue grew 12% to $4.2M.'],
        notes: ['Mention the Acme renewal first.', 'Keep it under five minutes.'],
      },
      {
        file: 1,
        title: 'Regional sales',
        body: [
          'Figures in thousands of euros.',
          {
            table: [
              ['Region', 'Q1', 'Q2'],
              ['North', '1,250.50', '1300'],
              ['South', '980', '1010'],
            ],
          },
        ],
      },
      { file: 2, body: ['An untitled slide & its one line.'] },
    ]);
    const doc = await pptxLoader.load(deck, '/kb/Review 2024.pptx');
    expect(doc.title).toBe('Quarterly review');
    expect(doc.pageCount).toBe(3);
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Quarterly review', page: 1 },
      { kind: 'text', text: 'Revenue grew 12% to $4.2M.', page: 1 },
      { kind: 'heading', level: 2, text: 'Speaker notes', page: 1 },
      { kind: 'text', text: 'Mention the Acme renewal first.', page: 1 },
      { kind: 'text', text: 'Keep it under five minutes.', page: 1 },
      { kind: 'heading', level: 1, text: 'Regional sales', page: 2 },
      { kind: 'text', text: 'Figures in thousands of euros.', page: 2 },
      { kind: 'heading', level: 2, text: 'Review 2024 / slide 2 — columns: Region, Q1, Q2', page: 2 },
      { kind: 'row', text: 'Region: North | Q1: 1,250.50 | Q2: 1300', table: 'Review 2024 / slide 2', page: 2 },
      { kind: 'row', text: 'Region: South | Q1: 980 | Q2: 1010', table: 'Review 2024 / slide 2', page: 2 },
      { kind: 'heading', level: 1, text: 'Slide 3', page: 3 },
      { kind: 'text', text: 'An untitled slide & its one line.', page: 3 },
    ]);
    expect(doc.tables).toEqual([
      {
        title: 'Review 2024 / slide 2',
        columns: [
          { name: 'Region', type: 'text' },
          { name: 'Q1', type: 'text' },
          { name: 'Q2', type: 'integer' },
        ],
        rows: [
          ['North', '1,250.50', 1300],
          ['South', '980', 1010],
        ],
      },
    ]);
  });

  it('reads grouped shapes and line breaks, skips slide-number chrome, and counts an empty slide without a block', async () => {
    const grouped =
      `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
      `${pptxShape(6, ['Inside a group'])}</p:grpSp>`;
    const broken =
      '<p:sp><p:nvSpPr><p:cNvPr id="7" name="T"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>' +
      '<a:p><a:r><a:t>First line</a:t></a:r><a:br/><a:r><a:t>second line</a:t></a:r></a:p></p:txBody></p:sp>';
    const deck = buildPptx([
      { shapesXml: `${pptxShape(2, ['Architecture'], 'ctrTitle')}${grouped}${broken}` },
      { body: [] },
      { title: 'Two tables', body: [{ table: [['a'], ['1']] }, { table: [['b'], ['2']] }] },
    ]);
    const doc = await pptxLoader.load(deck, '/kb/arch.pptx');
    expect(doc.pageCount).toBe(3);
    expect(doc.blocks.slice(0, 3)).toEqual([
      { kind: 'heading', level: 1, text: 'Architecture', page: 1 },
      { kind: 'text', text: 'Inside a group', page: 1 },
      { kind: 'text', text: 'First line\nsecond line', page: 1 },
    ]);
    expect(doc.blocks.map((block) => block.text)).not.toContain('‹#›');
    expect(doc.blocks.some((block) => block.page === 2)).toBe(false);
    expect(doc.tables?.map((table) => table.title)).toEqual(['arch / slide 3 / table 1', 'arch / slide 3 / table 2']);
  });

  it('reads a chart as its title and a table of its cached data: a row per category, a column per series', async () => {
    const chart =
      '<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Revenue by month</a:t></a:r></a:p></c:rich></c:tx></c:title>' +
      `<c:plotArea><c:barChart><c:barDir val="col"/>${pptxChartSeries('2023', ['Jan', 'Feb', 'Mar'], [10, 12.5, 9])}${pptxChartSeries('2024', ['Jan', 'Feb', 'Mar'], [11, 14, 10])}</c:barChart></c:plotArea>`;
    const doc = await pptxLoader.load(buildPptx([{ title: 'Trend', chartXml: chart }]), '/kb/trend.pptx');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Trend', page: 1 },
      { kind: 'text', text: 'Chart: Revenue by month', page: 1 },
      { kind: 'heading', level: 2, text: 'trend / slide 1 — columns: Category, 2023, 2024', page: 1 },
      { kind: 'row', text: 'Category: Jan | 2023: 10 | 2024: 11', table: 'trend / slide 1', page: 1 },
      { kind: 'row', text: 'Category: Feb | 2023: 12.5 | 2024: 14', table: 'trend / slide 1', page: 1 },
      { kind: 'row', text: 'Category: Mar | 2023: 9 | 2024: 10', table: 'trend / slide 1', page: 1 },
    ]);
    expect(doc.tables?.[0]?.columns).toEqual([
      { name: 'Category', type: 'text' },
      { name: '2023', type: 'real' },
      { name: '2024', type: 'integer' },
    ]);
  });

  it('refuses what is not a presentation as file_corrupt, saying how to fix it', async () => {
    const cases: [string, Buffer, RegExp][] = [
      ['text', Buffer.from('not a zip at all'), /not a readable \.pptx presentation \(it is not a zip archive\)/],
      ['docx', writeZip([{ path: 'word/document.xml', data: '<w:document/>' }]), /has no ppt\/presentation\.xml/],
      [
        'missing',
        writeZip([
          {
            path: 'ppt/presentation.xml',
            data: '<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId9"/></p:sldIdLst></p:presentation>',
          },
        ]),
        /slide 1 \(rId9\) has no slide part/,
      ],
      ['truncated', buildPptx([{ title: 'Some text' }]).subarray(0, 300), /not a readable \.pptx presentation/],
    ];
    for (const [name, bytes, message] of cases) {
      await expect(pptxLoader.load(bytes, `/kb/${name}.pptx`), name).rejects.toMatchObject({
        code: 'file_corrupt',
        message: expect.stringMatching(message),
        hint: expect.stringContaining('save it again as .pptx'),
      });
    }
  });
});

/** The load fails with the limit error naming `setting`. */
async function expectLimit(load: Promise<unknown>, setting: string, message: RegExp): Promise<void> {
  const error = await load.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
  expect((error as IngestLimitError).details).toMatchObject({ setting });
  expect((error as IngestLimitError).message).toMatch(message);
}

describe('PPTX bombs', () => {
  it('refuses a slide of a million empty paragraphs before parsing it', async () => {
    const shape = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="B"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody>${'<a:p/>'.repeat(1_000_000)}</p:txBody></p:sp>`;
    const bomb = buildPptx([{ shapesXml: shape }]);
    expect(bomb.length).toBeLessThan(16 * 1024);
    await expectLimit(
      pptxLoader.load(bomb, '/in/paragraphs.pptx'),
      'ingest.maxXmlElements',
      /paragraphs\.pptx has more than 500,000 XML elements/,
    );
  });

  it('refuses a zip that declares or inflates past ingest.maxExpandedBytes, and nesting past ingest.maxNestingDepth', async () => {
    const declared = buildPptx([{ title: 'A' }], [{ path: 'ppt/media/big.bin', data: 'x', declaredSize: 0xfffffff0 }]);
    await expectLimit(
      pptxLoader.load(declared, '/in/declared.pptx'),
      'ingest.maxExpandedBytes',
      /declared\.pptx declares 4096\.0 MiB of content/,
    );
    const lying = buildPptx(
      [{ title: 'A' }],
      [{ path: 'ppt/media/a.bin', data: Buffer.alloc(4 << 20), declaredSize: 10 }],
    );
    await expectLimit(
      pptxLoader.load(lying, '/in/lying.pptx', limits({ maxExpandedBytes: 1 << 20 })),
      'ingest.maxExpandedBytes',
      /lying\.pptx expands to more than 1\.0 MiB/,
    );
    const deep = buildPptx([{ shapesXml: `${'<p:grpSp>'.repeat(2_000)}${'</p:grpSp>'.repeat(2_000)}` }]);
    await expectLimit(
      pptxLoader.load(deep, '/in/deep.pptx'),
      'ingest.maxNestingDepth',
      /deep\.pptx nests elements more than 512 levels deep/,
    );
  });

  it('builds a chart from the points it holds, whatever count or index they claim', async () => {
    const claims =
      '<c:plotArea><c:lineChart><c:ser><c:tx><c:v>Load</c:v></c:tx><c:cat><c:strLit><c:ptCount val="1000000000"/>' +
      '<c:pt idx="999999999"><c:v>late</c:v></c:pt></c:strLit></c:cat><c:val><c:numLit><c:ptCount val="1000000000"/>' +
      '<c:pt idx="999999999"><c:v>7</c:v></c:pt></c:numLit></c:val></c:ser></c:lineChart></c:plotArea>';
    const doc = await pptxLoader.load(buildPptx([{ chartXml: claims }]), '/in/claims.pptx');
    expect(doc.tables?.[0]?.rows).toEqual([['late', 7]]);
  });

  it('counts table cells and text against ingest.maxTableCells and ingest.maxDocumentChars', async () => {
    const rows = [['id'], ...Array.from({ length: 600 }, (_, i) => [String(i)])];
    const tables = buildPptx([{ body: [{ table: rows }] }, { body: [{ table: rows }] }]);
    await expectLimit(
      pptxLoader.load(tables, '/in/cells.pptx', limits({ maxTableCells: 1_000 })),
      'ingest.maxTableCells',
      /cells\.pptx has 1,\d{3} cells/,
    );
    const text = buildPptx([{ title: 'Long', body: ['word '.repeat(5_000)], notes: ['note '.repeat(5_000)] }]);
    await expectLimit(
      pptxLoader.load(text, '/in/text.pptx', limits({ maxDocumentChars: 40_000 })),
      'ingest.maxDocumentChars',
      /text\.pptx holds more than 40,000 characters of text/,
    );
  });
});

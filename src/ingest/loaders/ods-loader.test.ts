import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { buildOdf } from '../../testing/odf-builder.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { odsLoader } from './ods-loader.ts';

const limits = (overrides: Partial<IngestLimits>): IngestLimits => ({ ...INGEST_DEFAULTS, ...overrides });

const text = (value: string, attrs = '') =>
  `<table:table-cell office:value-type="string" calcext:value-type="string"${attrs}><text:p>${value}</text:p></table:table-cell>`;
const float = (value: number, shown: string) =>
  `<table:table-cell office:value-type="float" office:value="${value}" calcext:value-type="float"><text:p>${shown}</text:p></table:table-cell>`;
const row = (cells: string, attrs = '') => `<table:table-row${attrs}>${cells}</table:table-row>`;
/** What LibreOffice Calc writes after the last used cell: the rest of the sheet, empty, as repeats. */
const REST_OF_SHEET =
  row('<table:table-cell table:number-columns-repeated="1020"/>', ' table:number-rows-repeated="1048571"') +
  row('<table:table-cell table:number-columns-repeated="1024"/>');

describe('odsLoader', () => {
  it('makes one typed table per sheet from the cells’ values, titled `stem / sheet`, as LibreOffice writes them', async () => {
    const orders =
      '<table:table table:name="Orders"><table:table-column table:number-columns-repeated="1024"/>' +
      '<table:table-header-rows>' +
      row(`${text('order_id')}${text('amount')}${text('shipped')}${text('date')}${text('share')}`) +
      '</table:table-header-rows>' +
      row(
        `${text('A-1001')}${float(1250.5, '1,250.50 €')}<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>` +
          '<table:table-cell office:value-type="date" office:date-value="2024-03-01T00:00:00"><text:p>01/03/24</text:p></table:table-cell>' +
          '<table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25%</text:p></table:table-cell>' +
          '<table:table-cell table:number-columns-repeated="1019"/>',
      ) +
      // Two identical rows, written once with a repeat.
      row(`${text('A-1002')}${float(99, '99.00 €')}`, ' table:number-rows-repeated="2"') +
      REST_OF_SHEET +
      '</table:table>';
    const customers =
      '<table:table table:name="Customers">' +
      row(`${text('id')}${text('name')}${text('tags')}`) +
      row(`${float(1, '1')}${text('Acme', ' table:number-columns-spanned="2"')}<table:covered-table-cell/>`) +
      row(
        `${float(2, '2')}<table:table-cell office:value-type="string"><text:p>Beta</text:p><text:p>Ltd</text:p></table:table-cell>${text('x')}`,
      ) +
      REST_OF_SHEET +
      '</table:table>';
    const empty = `<table:table table:name="Empty">${REST_OF_SHEET}</table:table>`;
    const doc = await odsLoader.load(buildOdf('spreadsheet', orders + empty + customers), '/data/Sales Q1.ods');
    expect(doc.tables?.map((table) => table.title)).toEqual(['Sales Q1 / Orders', 'Sales Q1 / Customers']);
    expect(doc.tables?.[0]).toEqual({
      title: 'Sales Q1 / Orders',
      columns: [
        { name: 'order_id', type: 'text' },
        { name: 'amount', type: 'real' },
        { name: 'shipped', type: 'boolean' },
        { name: 'date', type: 'text' },
        { name: 'share', type: 'real' },
      ],
      rows: [
        ['A-1001', 1250.5, true, '2024-03-01', 0.25],
        ['A-1002', 99, null, null, null],
        ['A-1002', 99, null, null, null],
      ],
    });
    expect(doc.tables?.[1]?.rows).toEqual([
      [1, 'Acme', null],
      [2, 'Beta Ltd', 'x'],
    ]);
    expect(doc.blocks).toContainEqual({
      kind: 'heading',
      level: 1,
      text: 'Sales Q1 / Customers — columns: id, name, tags',
    });
    expect(doc.blocks).toContainEqual({
      kind: 'row',
      text: 'id: 2 | name: Beta Ltd | tags: x',
      table: 'Sales Q1 / Customers',
    });
    expect(doc.blocks.filter((block) => block.kind === 'row')).toHaveLength(5);
  });

  it('titles the table by the file stem when the file has one sheet, and returns zero blocks without data', async () => {
    const one = `<table:table table:name="Sheet1">${row(text('a'))}${row(float(1, '1'))}</table:table>`;
    expect((await odsLoader.load(buildOdf('spreadsheet', one), '/data/metrics.ods')).tables?.[0]?.title).toBe(
      'metrics',
    );
    const blank = `<table:table table:name="Sheet1">${REST_OF_SHEET}</table:table>`;
    expect(await odsLoader.load(buildOdf('spreadsheet', blank), '/data/blank.ods')).toEqual({ blocks: [] });
  });
});

async function expectLimit(load: Promise<unknown>, setting: string, message: RegExp): Promise<void> {
  const error = await load.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
  expect((error as IngestLimitError).details).toMatchObject({ setting });
  expect((error as IngestLimitError).message).toMatch(message);
}

describe('ODS bombs', () => {
  it('refuses a row of data repeated a billion times before building one copy', async () => {
    const sheet = `<table:table table:name="S">${row(text('id'))}${row(text('x'), ' table:number-rows-repeated="1000000000"')}</table:table>`;
    const bomb = buildOdf('spreadsheet', sheet);
    expect(bomb.length).toBeLessThan(2048);
    await expectLimit(
      odsLoader.load(bomb, '/in/rows.ods'),
      'ingest.maxTableCells',
      /rows\.ods has 1,000,000,001 cells/,
    );
  });

  it('refuses a cell repeated across a million columns, and data past a million empty ones', async () => {
    const wide = `<table:table table:name="S">${row(text('x', ' table:number-columns-repeated="1000000"'))}</table:table>`;
    await expectLimit(
      odsLoader.load(buildOdf('spreadsheet', wide), '/in/wide.ods'),
      'ingest.maxTableColumns',
      /wide\.ods has a table 1,000,000 columns wide/,
    );
    const far = `<table:table table:name="S">${row(`<table:table-cell table:number-columns-repeated="999999999"/>${text('x')}`)}</table:table>`;
    await expectLimit(
      odsLoader.load(buildOdf('spreadsheet', far), '/in/far.ods'),
      'ingest.maxTableColumns',
      /far\.ods has a table 1,000,000,000 columns wide/,
    );
  });

  it('counts cells across sheets and repeats against ingest.maxTableCells', async () => {
    const sheet = (name: string) =>
      `<table:table table:name="${name}">${row(`${text('a')}${text('b')}`)}${row(`${float(1, '1')}${float(2, '2')}`, ' table:number-rows-repeated="300"')}</table:table>`;
    await expectLimit(
      odsLoader.load(
        buildOdf('spreadsheet', sheet('A') + sheet('B')),
        '/in/sheets.ods',
        limits({ maxTableCells: 1_000 }),
      ),
      'ingest.maxTableCells',
      /sheets\.ods has 1,204 cells/,
    );
  });

  it('refuses a million empty cells as XML elements and a zip that declares 4 GiB, before parsing', async () => {
    const cells = `<table:table table:name="S">${row('<table:table-cell/>'.repeat(1_000_000))}</table:table>`;
    await expectLimit(
      odsLoader.load(buildOdf('spreadsheet', cells), '/in/cells.ods'),
      'ingest.maxXmlElements',
      /cells\.ods has more than 500,000 XML elements/,
    );
    const declared = buildOdf('spreadsheet', '', {
      extra: [{ path: 'Pictures/a.png', data: 'x', declaredSize: 0xfffffff0 }],
    });
    await expectLimit(
      odsLoader.load(declared, '/in/declared.ods'),
      'ingest.maxExpandedBytes',
      /declared\.ods declares 4096\.0 MiB of content/,
    );
  });
});

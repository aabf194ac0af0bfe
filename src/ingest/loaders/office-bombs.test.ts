import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { buildDocx, buildDocxFromBody } from '../../testing/docx-builder.ts';
import { buildXlsx, numberRows } from '../../testing/xlsx-builder.ts';
import { writeZip } from '../../testing/zip-writer.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { csvLoader } from './csv-loader.ts';
import { docxLoader } from './docx-loader.ts';
import { gridToTable } from './tables.ts';
import { xlsxLoader } from './xlsx-loader.ts';

const limits = (overrides: Partial<IngestLimits>): IngestLimits => ({ ...INGEST_DEFAULTS, ...overrides });

/** The load fails with the limit error naming `setting` and its variable. */
async function expectLimit(load: Promise<unknown>, setting: string, env: string, message: RegExp): Promise<void> {
  const error = await load.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
  const limit = error as IngestLimitError;
  expect(limit.code).toBe('file_limit_exceeded');
  expect(limit.details).toMatchObject({ setting, env });
  expect(limit.message).toMatch(message);
  expect(limit.message).toContain(setting);
  expect(limit.hint).toContain(env);
}

describe('XLSX bombs', () => {
  it('refuses a 1.5 KB workbook that declares A1:XFD1048576 before SheetJS walks the range', async () => {
    const bomb = buildXlsx([
      {
        name: 'S',
        dimension: 'A1:XFD1048576',
        sheetData: '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>',
      },
    ]);
    expect(bomb.length).toBeLessThan(2048);
    await expectLimit(
      xlsxLoader.load(bomb, '/in/range.xlsx'),
      'ingest.maxTableColumns',
      'EVIDENT_MAX_TABLE_COLUMNS',
      /range\.xlsx has a table 16,384 columns wide/,
    );
    const tall = buildXlsx([{ name: 'S', dimension: 'A1:C1048576', sheetData: '' }]);
    await expectLimit(
      xlsxLoader.load(tall, '/in/tall.xlsx'),
      'ingest.maxTableCells',
      'EVIDENT_MAX_TABLE_CELLS',
      /tall\.xlsx declares a sheet range of 3,145,728 cells/,
    );
  });

  it('refuses the range SheetJS computes from two far-apart cells when no range is declared', async () => {
    const sparse = buildXlsx([
      {
        name: 'S',
        sheetData: '<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="ALL1048576"><v>2</v></c></row>',
      },
    ]);
    await expectLimit(
      xlsxLoader.load(sparse, '/in/sparse.xlsx'),
      'ingest.maxTableCells',
      'EVIDENT_MAX_TABLE_CELLS',
      /sparse\.xlsx has sheet ranges of 1,048,576,000 cells/,
    );
  });

  it('counts the cells written, whatever the sheets declare', async () => {
    const book = buildXlsx([{ name: 'S', dimension: 'A1', sheetData: numberRows(2_000) }]);
    await expectLimit(
      xlsxLoader.load(book, '/in/rows.xlsx', limits({ maxTableCells: 1_000 })),
      'ingest.maxTableCells',
      'EVIDENT_MAX_TABLE_CELLS',
      /rows\.xlsx has 2,000 cells/,
    );
  });

  it('reads 160,000 rows without overflowing the stack', async () => {
    const book = buildXlsx([
      {
        name: 'S',
        sheetData: `<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row>${numberRows(160_000).replace('<row r="1"><c r="A1"><v>1</v></c></row>', '')}`,
      },
    ]);
    const doc = await xlsxLoader.load(book, '/in/long.xlsx');
    expect(doc.tables?.[0]?.rows).toHaveLength(159_999);
    expect(doc.tables?.[0]?.rows.at(-1)).toEqual([160_000]);
    expect(doc.blocks.at(-1)).toEqual({ kind: 'row', text: 'n: 160000', table: 'long' });
  }, 60_000);

  it('builds a table of 200,000 rows without spreading them as arguments', () => {
    const grid = [['id'], ...Array.from({ length: 200_000 }, (_, i) => [String(i)])];
    expect(gridToTable('t', grid)?.table.rows).toHaveLength(200_000);
  });
});

describe('DOCX bombs', () => {
  it('refuses a 10 KB document of a million empty paragraphs before mammoth builds its tree', async () => {
    const bomb = buildDocxFromBody('<w:p/>'.repeat(1_000_000));
    expect(bomb.length).toBeLessThan(16 * 1024);
    await expectLimit(
      docxLoader.load(bomb, '/in/paragraphs.docx'),
      'ingest.maxXmlElements',
      'EVIDENT_MAX_XML_ELEMENTS',
      /paragraphs\.docx has more than 500,000 XML elements/,
    );
  });

  it('refuses a document whose runs hold more text than ingest.maxDocumentChars, before converting it', async () => {
    const run = `<w:p><w:r><w:t xml:space="preserve">${'Clause text with figures 1,250.50 &amp; terms. '.repeat(15)}</w:t></w:r></w:p>`;
    const bomb = buildDocxFromBody(run.repeat(33_000)); // 21 million characters
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expectLimit(
      docxLoader.load(bomb, '/in/text.docx'),
      'ingest.maxDocumentChars',
      'EVIDENT_MAX_DOCUMENT_CHARS',
      /text\.docx holds more than 20,000,000 characters of text/,
    );
  });

  it('refuses XML nested deeper than ingest.maxNestingDepth', async () => {
    const bomb = buildDocxFromBody(
      `${'<w:sdt><w:sdtContent>'.repeat(50_000)}${'</w:sdtContent></w:sdt>'.repeat(50_000)}`,
    );
    await expectLimit(
      docxLoader.load(bomb, '/in/deep.docx'),
      'ingest.maxNestingDepth',
      'EVIDENT_MAX_NESTING_DEPTH',
      /deep\.docx nests elements more than 512 levels deep/,
    );
  });

  it('refuses a zip whose directory declares more than ingest.maxExpandedBytes, without inflating anything', async () => {
    const entries = [{ path: 'word/document.xml', data: '<w:document/>', declaredSize: 0xfffffff0 }];
    await expectLimit(
      docxLoader.load(writeZip(entries), '/in/declared.docx'),
      'ingest.maxExpandedBytes',
      'EVIDENT_MAX_EXPANDED_BYTES',
      /declared\.docx declares 4096\.0 MiB of content/,
    );
  });

  it('stops inflating an entry that lies about its size at the limit', async () => {
    const lying = [{ path: 'word/document.xml', data: Buffer.alloc(8 * 1024 * 1024, 0x20), declaredSize: 100 }];
    await expectLimit(
      docxLoader.load(writeZip(lying), '/in/lying.docx', limits({ maxExpandedBytes: 1024 * 1024 })),
      'ingest.maxExpandedBytes',
      'EVIDENT_MAX_EXPANDED_BYTES',
      /lying\.docx expands to more than 1\.0 MiB/,
    );
    // Within the limit, a size that does not match is corruption: the parser would read something else.
    await expect(docxLoader.load(writeZip(lying), '/in/lying.docx')).rejects.toMatchObject({
      code: 'file_corrupt',
      message:
        'lying.docx is not a readable .docx document (the entry "word/document.xml" holds 8388608 bytes but declares 100).',
    });
  });

  it('refuses more zip entries than ingest.maxArchiveEntries', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({
      path: `word/media/p${i}.bin`,
      data: 'x',
      method: 'store' as const,
    }));
    await expectLimit(
      docxLoader.load(writeZip(entries), '/in/entries.docx'),
      'ingest.maxArchiveEntries',
      'EVIDENT_MAX_ARCHIVE_ENTRIES',
      /entries\.docx has 10,001 zip entries/,
    );
  });

  it('refuses what a parser could read differently as corrupt: duplicate names, encryption, unknown compression', async () => {
    const good = buildDocx(['Text']);
    const cases: [string, Buffer, RegExp][] = [
      [
        'duplicate',
        writeZip([
          { path: 'word/document.xml', data: '<a/>' },
          { path: 'word/document.xml', data: '<b/>' },
        ]),
        /occurs twice/,
      ],
      ['encrypted', writeZip([{ path: 'word/document.xml', data: '<a/>', flags: 1 }]), /is encrypted/],
      ['lzma', writeZip([{ path: 'word/document.xml', data: '<a/>', methodNumber: 14 }]), /compression method 14/],
      ['truncated', good.subarray(0, good.length - 30), /not a readable \.docx document/],
    ];
    for (const [name, bytes, message] of cases) {
      await expect(docxLoader.load(bytes, `/in/${name}.docx`), name).rejects.toMatchObject({
        code: 'file_corrupt',
        message: expect.stringMatching(message),
      });
    }
  });
});

describe('CSV tables', () => {
  it('refuses a table wider than ingest.maxTableColumns, or with more cells than ingest.maxTableCells, counted on the text', async () => {
    const wide = Buffer.from(`${Array.from({ length: 1_001 }, (_, i) => `c${i}`).join(',')}\n1\n`);
    await expectLimit(
      csvLoader.load(wide, '/in/wide.csv'),
      'ingest.maxTableColumns',
      'EVIDENT_MAX_TABLE_COLUMNS',
      /wide\.csv has a table 1,001 columns wide/,
    );
    const long = Buffer.from(`id,name\n${Array.from({ length: 600 }, (_, i) => `${i},n${i}`).join('\n')}\n`);
    await expectLimit(
      csvLoader.load(long, '/in/long.csv', limits({ maxTableCells: 1_000 })),
      'ingest.maxTableCells',
      'EVIDENT_MAX_TABLE_CELLS',
      /long\.csv has more than 1,000 cells/,
    );
    // 5 million commas on one line (10 MB) fail before csv-parse makes a string of each cell; quoted ones do not count.
    const line = Buffer.from(`a${','.repeat(5_000_000)}\n1\n`);
    await expectLimit(
      csvLoader.load(line, '/in/line.csv'),
      'ingest.maxTableColumns',
      'EVIDENT_MAX_TABLE_COLUMNS',
      /line\.csv has a table 5,000,001 columns wide/,
    );
    const quoted = await csvLoader.load(Buffer.from(`id,note\n1,"${','.repeat(5_000)}"\n`), '/in/quoted.csv');
    expect(quoted.tables?.[0]?.columns.map((column) => column.name)).toEqual(['id', 'note']);
  });
});

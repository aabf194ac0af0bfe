import { writeZip, type ZipEntry } from './zip-writer.ts';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** One sheet of a hand-built workbook: its name and the XML of its `<sheetData>` (and, optionally, a declared range). */
export interface XlsxSheet {
  name: string;
  /** `<row r="1"><c r="A1"><v>1</v></c></row>…` */
  sheetData: string;
  /** The `<dimension ref>` the sheet declares, e.g. `A1:XFD1048576`; none when omitted. */
  dimension?: string;
}

/** A sheet of numbers, one `<row>` per value, in column A: the shape of a long export. */
export function numberRows(count: number, column = 'A'): string {
  const parts: string[] = [];
  for (let row = 1; row <= count; row += 1)
    parts.push(`<row r="${row}"><c r="${column}${row}"><v>${row}</v></c></row>`);
  return parts.join('');
}

/**
 * Builds a real, minimal .xlsx (SpreadsheetML in a zip) from sheet XML written by the test, so a test can make a
 * workbook no spreadsheet program would write: a 17-billion-cell declared range, 200,000 rows, lying zip sizes.
 * `extra` entries are appended as they are (e.g. a bomb part).
 */
export function buildXlsx(sheets: readonly XlsxSheet[], extra: readonly ZipEntry[] = []): Buffer {
  const overrides = sheets
    .map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  return writeZip([
    {
      path: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}</Types>`,
    },
    {
      path: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      path: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${sheets
        .map((sheet, i) => `<sheet name="${sheet.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
        .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
        .join('')}</Relationships>`,
    },
    ...sheets.map((sheet, i) => ({
      path: `xl/worksheets/sheet${i + 1}.xml`,
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}">${sheet.dimension ? `<dimension ref="${sheet.dimension}"/>` : ''}<sheetData>${sheet.sheetData}</sheetData></worksheet>`,
    })),
    ...extra,
  ]);
}

import { writeZip } from './zip-writer.ts';

/** A paragraph of a test .docx: plain text, or a heading of a Word built-in style. */
export type DocxParagraph = string | { heading: 1 | 2 | 3 | 4 | 5 | 6; text: string } | { table: string[][] };

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const run = (text: string): string => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

function paragraphXml(paragraph: DocxParagraph): string {
  if (typeof paragraph === 'string') return `<w:p>${run(paragraph)}</w:p>`;
  if ('heading' in paragraph) {
    return `<w:p><w:pPr><w:pStyle w:val="Heading${paragraph.heading}"/></w:pPr>${run(paragraph.text)}</w:p>`;
  }
  const rows = paragraph.table
    .map((cells) => `<w:tr>${cells.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`)
    .join('');
  return `<w:tbl>${rows}</w:tbl>`;
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** Builds a real, minimal .docx (WordprocessingML in a zip) with heading styles Word would write. */
export function buildDocx(paragraphs: readonly DocxParagraph[]): Buffer {
  return buildDocxFromBody(paragraphs.map(paragraphXml).join(''));
}

/**
 * A .docx whose `<w:body>` is the XML given, written by the test: what no word processor writes (a million empty
 * paragraphs, 100,000 nested elements, one 20-million-character run) to attack the loader with.
 */
export function buildDocxFromBody(bodyXml: string): Buffer {
  const headingStyles = [1, 2, 3, 4, 5, 6]
    .map(
      (level) => `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/></w:style>`,
    )
    .join('');
  return writeZip([
    {
      path: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        '</Types>',
    },
    {
      path: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    },
    {
      path: 'word/_rels/document.xml.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        '</Relationships>',
    },
    {
      path: 'word/styles.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">${headingStyles}</w:styles>`,
    },
    {
      path: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${bodyXml}</w:body></w:document>`,
    },
  ]);
}

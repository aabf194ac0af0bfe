import { writeZip } from './zip-writer.ts';

/**
 * A paragraph of a test .docx: plain text, a heading of a Word built-in style, a table, or a PNG picture shown inline
 * (after `text`, when given: a picture inside a sentence).
 */
export type DocxParagraph =
  | string
  | { heading: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { table: string[][] }
  | { picture: Buffer; text?: string };

/** A picture of the document: its relationship id and its bytes, stored as `word/media/<id>.png`. */
interface Media {
  id: string;
  png: Buffer;
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const run = (text: string): string => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

const NS = {
  wp: 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
};

/** A picture as Word writes one in line with the text: a DrawingML `pic:pic` whose blip is the media part `id`. */
const drawing = (id: string): string =>
  `<w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="7100000"/><wp:docPr id="${id.slice(5)}" name="${id}"/>` +
  `<a:graphic><a:graphicData uri="${NS.pic}"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="${id}.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;

function paragraphXml(paragraph: DocxParagraph, media: Media[]): string {
  if (typeof paragraph === 'string') return `<w:p>${run(paragraph)}</w:p>`;
  if ('picture' in paragraph) {
    const id = `rIdPic${media.length + 1}`;
    media.push({ id, png: paragraph.picture });
    return `<w:p>${paragraph.text ? run(paragraph.text) : ''}${drawing(id)}</w:p>`;
  }
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
  const media: Media[] = [];
  const body = paragraphs.map((paragraph) => paragraphXml(paragraph, media)).join('');
  return buildDocxFromBody(body, media);
}

/**
 * A .docx whose `<w:body>` is the XML given, written by the test: what no word processor writes (a million empty
 * paragraphs, 100,000 nested elements, one 20-million-character run) to attack the loader with.
 */
export function buildDocxFromBody(bodyXml: string, media: readonly Media[] = []): Buffer {
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
        '<Default Extension="png" ContentType="image/png"/>' +
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
        media
          .map(
            ({ id }) =>
              `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/${id}.png"/>`,
          )
          .join('') +
        '</Relationships>',
    },
    {
      path: 'word/styles.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">${headingStyles}</w:styles>`,
    },
    {
      path: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" ${Object.entries(NS)
        .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
        .join(' ')}><w:body>${bodyXml}</w:body></w:document>`,
    },
    ...media.map(({ id, png }) => ({ path: `word/media/${id}.png`, data: png, method: 'store' as const })),
  ]);
}

import { writeZip, type ZipEntry } from './zip-writer.ts';

const NAMESPACES = {
  office: 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  text: 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
  table: 'urn:oasis:names:tc:opendocument:xmlns:table:1.0',
  draw: 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0',
  presentation: 'urn:oasis:names:tc:opendocument:xmlns:presentation:1.0',
  style: 'urn:oasis:names:tc:opendocument:xmlns:style:1.0',
  fo: 'urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0',
  svg: 'urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0',
  calcext: 'urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0',
  dc: 'http://purl.org/dc/elements/1.1/',
  meta: 'urn:oasis:names:tc:opendocument:xmlns:meta:1.0',
};
const XMLNS = Object.entries(NAMESPACES)
  .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
  .join(' ');
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

export type OdfKind = 'text' | 'spreadsheet' | 'presentation';

const MIMETYPES: Record<OdfKind, string> = {
  text: 'application/vnd.oasis.opendocument.text',
  spreadsheet: 'application/vnd.oasis.opendocument.spreadsheet',
  presentation: 'application/vnd.oasis.opendocument.presentation',
};

/**
 * Builds a real OpenDocument file as LibreOffice lays it out: `mimetype` first and stored, the manifest,
 * `content.xml` with `office:body/office:<kind>` holding `bodyXml` (written by the test, with the usual prefixes),
 * and `meta.xml` with a title when given. `mimetype` overrides the type the file claims; `extra` entries are
 * appended as they are.
 */
export function buildOdf(
  kind: OdfKind,
  bodyXml: string,
  options: { title?: string; mimetype?: string; extra?: readonly ZipEntry[] } = {},
): Buffer {
  const mimetype = options.mimetype ?? MIMETYPES[kind];
  const entries: ZipEntry[] = [
    { path: 'mimetype', data: mimetype, method: 'store' },
    {
      path: 'META-INF/manifest.xml',
      data:
        `${HEAD}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
        `<manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>` +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>' +
        '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    },
    {
      path: 'content.xml',
      data: `${HEAD}<office:document-content ${XMLNS} office:version="1.3"><office:automatic-styles/><office:body><office:${kind}>${bodyXml}</office:${kind}></office:body></office:document-content>`,
    },
    {
      path: 'meta.xml',
      data: `${HEAD}<office:document-meta ${XMLNS} office:version="1.3"><office:meta><meta:generator>Evident tests</meta:generator>${
        options.title === undefined ? '' : `<dc:title>${options.title}</dc:title>`
      }</office:meta></office:document-meta>`,
    },
  ];
  return writeZip([...entries, ...(options.extra ?? [])]);
}

/** An OpenDocument table of text cells (`table:table`), the first row as LibreOffice writes any row. */
export function odfTable(name: string, rows: readonly (readonly string[])[]): string {
  const cell = (text: string) =>
    `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
  return `<table:table table:name="${name}"><table:table-column table:number-columns-repeated="${rows[0]?.length ?? 1}"/>${rows
    .map((row) => `<table:table-row>${row.map(cell).join('')}</table:table-row>`)
    .join('')}</table:table>`;
}

import { writeZip, type ZipEntry } from './zip-writer.ts';

/** One slide of a test deck: its title, body (paragraphs and tables), speaker notes, or its shape tree as raw XML. */
export interface PptxSlide {
  title?: string;
  body?: (string | { table: string[][] })[];
  notes?: string[];
  /** The inside of `<p:spTree>` as written by the test (replaces title and body). */
  shapesXml?: string;
  /** The slide's file number (`ppt/slides/slide<n>.xml`); by default its position. */
  file?: number;
  /** A chart on the slide, after its body: the inside of the chart part's `<c:chart>` (title, plot area). */
  chartXml?: string;
  /** Pictures on the slide, after its body (PNG bytes, stored as `ppt/media/`). */
  pictures?: Buffer[];
}

const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

/** A chart's series as PowerPoint caches it: name, categories and values (`c:ser` inside a chart type element). */
export function pptxChartSeries(name: string, categories: readonly string[], values: readonly number[]): string {
  const cache = (tag: 'strCache' | 'numCache', items: readonly (string | number)[]) =>
    `<c:${tag}><c:ptCount val="${items.length}"/>${items
      .map((item, index) => `<c:pt idx="${index}"><c:v>${escapeXml(String(item))}</c:v></c:pt>`)
      .join('')}</c:${tag}>`;
  return (
    `<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f>${cache('strCache', [name])}</c:strRef></c:tx>` +
    `<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$9</c:f>${cache('strCache', categories)}</c:strRef></c:cat>` +
    `<c:val><c:numRef><c:f>Sheet1!$B$2:$B$9</c:f>${cache('numCache', values)}</c:numRef></c:val></c:ser>`
  );
}

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const paragraph = (text: string): string => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`;

/** A shape as PowerPoint writes it: id, name, placeholder (when given) and a text body of paragraphs. */
export function pptxShape(id: number, paragraphs: readonly string[], placeholder?: string): string {
  const ph = placeholder ? `<p:nvPr><p:ph type="${placeholder}"/></p:nvPr>` : '<p:nvPr/>';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/>${ph}</p:nvSpPr><p:spPr/>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.map(paragraph).join('')}</p:txBody></p:sp>`
  );
}

/** A table in its graphic frame, as PowerPoint writes one. */
export function pptxTable(id: number, rows: readonly (readonly string[])[]): string {
  const cells = (row: readonly string[]) =>
    row.map((cell) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>${paragraph(cell)}</a:txBody><a:tcPr/></a:tc>`).join('');
  const columns = (rows[0] ?? []).map(() => '<a:gridCol w="3048000"/>').join('');
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table ${id}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="0" y="0"/><a:ext cx="6096000" cy="741680"/></p:xfrm><a:graphic><a:graphicData uri="${A}/table">` +
    `<a:tbl><a:tblPr firstRow="1"/><a:tblGrid>${columns}</a:tblGrid>${rows
      .map((row) => `<a:tr h="370840">${cells(row)}</a:tr>`)
      .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
  );
}

function slideShapes(slide: PptxSlide): string {
  if (slide.shapesXml !== undefined) return slide.shapesXml;
  const shapes: string[] = [];
  if (slide.title !== undefined) shapes.push(pptxShape(2, [slide.title], 'title'));
  let id = 3;
  for (const item of slide.body ?? []) {
    id += 1;
    shapes.push(typeof item === 'string' ? pptxShape(id, [item], 'body') : pptxTable(id, item.table));
  }
  (slide.pictures ?? []).forEach((_, index) => {
    shapes.push(
      `<p:pic><p:nvPicPr><p:cNvPr id="${60 + index}" name="Picture ${index + 1}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>` +
        `<p:blipFill><a:blip r:embed="rId${10 + index}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
        '<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="6096000" cy="4064000"/></a:xfrm></p:spPr></p:pic>',
    );
  });
  if (slide.chartXml !== undefined) {
    shapes.push(
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="50" name="Chart 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
        `<p:xfrm><a:off x="0" y="0"/><a:ext cx="6096000" cy="4064000"/></p:xfrm><a:graphic><a:graphicData uri="${C}">` +
        `<c:chart xmlns:c="${C}" r:id="rId3"/></a:graphicData></a:graphic></p:graphicFrame>`,
    );
  }
  // The slide number placeholder PowerPoint adds to every slide: chrome, not content.
  shapes.push(
    `<p:sp><p:nvSpPr><p:cNvPr id="99" name="Slide Number"/><p:cNvSpPr/><p:nvPr><p:ph type="sldNum"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:fld type="slidenum"><a:t>‹#›</a:t></a:fld></a:p></p:txBody></p:sp>`,
  );
  return shapes.join('');
}

const spTree = (inner: string) =>
  `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${inner}</p:spTree></p:cSld>`;

const rels = (items: readonly { id: string; type: string; target: string }[]) =>
  `${HEAD}<Relationships xmlns="${PKG_REL}">${items
    .map((item) => `<Relationship Id="${item.id}" Type="${R}/${item.type}" Target="${item.target}"/>`)
    .join('')}</Relationships>`;

/**
 * Builds a real, minimal .pptx (PresentationML in a zip) as PowerPoint lays it out: the slide list in
 * `ppt/presentation.xml` with its relationships, one part per slide, a notes page per slide with notes, a chart part
 * per slide with a chart, its pictures under `ppt/media/`. Slides are
 * listed in the order given; `file` numbers let a test store them under names in another order. `extra` entries
 * are appended as they are.
 */
export function buildPptx(slides: readonly PptxSlide[], extra: readonly ZipEntry[] = []): Buffer {
  const files = slides.map((slide, index) => slide.file ?? index + 1);
  const entries: ZipEntry[] = [
    {
      path: '[Content_Types].xml',
      data:
        `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>' +
        `${files.map((n) => `<Override PartName="/ppt/slides/slide${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join('')}</Types>`,
    },
    { path: '_rels/.rels', data: rels([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]) },
    {
      path: 'ppt/presentation.xml',
      data: `${HEAD}<p:presentation xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:sldIdLst>${files
        .map((n, index) => `<p:sldId id="${256 + index}" r:id="rId${n + 1}"/>`)
        .join('')}</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>`,
    },
    {
      path: 'ppt/_rels/presentation.xml.rels',
      data: rels(files.map((n) => ({ id: `rId${n + 1}`, type: 'slide', target: `slides/slide${n}.xml` }))),
    },
  ];
  slides.forEach((slide, index) => {
    const n = files[index] as number;
    entries.push({
      path: `ppt/slides/slide${n}.xml`,
      data: `${HEAD}<p:sld xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}">${spTree(slideShapes(slide))}</p:sld>`,
    });
    const slideRels = [
      ...(slide.notes ? [{ id: 'rId2', type: 'notesSlide', target: `../notesSlides/notesSlide${n}.xml` }] : []),
      ...(slide.chartXml !== undefined ? [{ id: 'rId3', type: 'chart', target: `../charts/chart${n}.xml` }] : []),
      ...(slide.pictures ?? []).map((_, index) => ({
        id: `rId${10 + index}`,
        type: 'image',
        target: `../media/image${n}-${index + 1}.png`,
      })),
    ];
    (slide.pictures ?? []).forEach((picture, index) => {
      entries.push({ path: `ppt/media/image${n}-${index + 1}.png`, data: picture, method: 'store' });
    });
    if (slideRels.length > 0) entries.push({ path: `ppt/slides/_rels/slide${n}.xml.rels`, data: rels(slideRels) });
    if (slide.chartXml !== undefined) {
      entries.push({
        path: `ppt/charts/chart${n}.xml`,
        data: `${HEAD}<c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${R}"><c:chart>${slide.chartXml}</c:chart></c:chartSpace>`,
      });
    }
    if (!slide.notes) return;
    entries.push({
      path: `ppt/notesSlides/notesSlide${n}.xml`,
      data:
        `${HEAD}<p:notes xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}">` +
        spTree(
          `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>${pptxShape(3, slide.notes, 'body')}`,
        ) +
        '</p:notes>',
    });
  });
  return writeZip([...entries, ...extra]);
}

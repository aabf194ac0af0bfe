/**
 * A page of a test PDF: an 8-bit grayscale or RGB PNG drawn over the whole page (a scan, with no text layer but the
 * `stamp` line set over its foot, as a scanner or a Bates numbering tool adds one; `hiddenStamp`: in invisible
 * text, which a renderer does not draw and so OCR cannot read), or ASCII lines of text (with a
 * `logo`, a PNG drawn one inch square in the top right corner).
 */
export type ImagePdfPage =
  | { png: Buffer; dpi: number; stamp?: string; hiddenStamp?: boolean }
  | { text: readonly string[]; logo?: Buffer };

interface Png {
  width: number;
  height: number;
  /** 1 (gray) or 3 (RGB) samples per pixel. */
  colors: 1 | 3;
  /** The concatenated IDAT data: a zlib stream of rows, each with its PNG filter byte. */
  data: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The parts of an 8-bit grayscale or RGB, non-interlaced PNG (what `pdftoppm -png` writes) a PDF needs. */
function readPng(png: Buffer): Png {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0;
  let height = 0;
  let colors: 1 | 3 = 1;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colorType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (bitDepth !== 8 || (colorType !== 0 && colorType !== 2) || interlace !== 0)
        throw new Error('only 8-bit grayscale or RGB, non-interlaced PNGs are supported');
      colors = colorType === 0 ? 1 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    at += 12 + length;
  }
  if (!width || idat.length === 0) throw new Error('PNG without an image');
  return { width, height, colors, data: Buffer.concat(idat) };
}

/**
 * Builds a PDF whose image pages hold no text at all, as a scanner makes them. A PNG's pixel data is a PDF Flate
 * stream with the PNG predictors, so it is embedded as it is, without decoding.
 */
export function buildImagePdf(pages: readonly ImagePdfPage[]): Buffer {
  const objects: Buffer[] = [];
  const add = (body: string | Buffer): number => {
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
    return objects.length;
  };
  const stream = (dict: string, data: Buffer): Buffer =>
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  const catalogId = add('');
  const pagesId = add('');
  const fontId = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of pages) {
    let width = 612;
    let height = 792;
    let resources: string;
    let content: string;
    const fontResource = `/Font << /F1 ${fontId} 0 R >>`;
    const imageObject = (png: Png): number =>
      add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${png.width} /Height ${png.height} /ColorSpace /Device${png.colors === 1 ? 'Gray' : 'RGB'} /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${png.colors} /BitsPerComponent 8 /Columns ${png.width} >>`,
          png.data,
        ),
      );
    const textLine = (line: string, size: number, x: number, y: number, hidden = false): string =>
      `BT ${hidden ? '3 Tr ' : ''}/F1 ${size} Tf ${x} ${y} Td (${line.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
    if ('png' in page) {
      const png = readPng(page.png);
      width = (png.width * 72) / page.dpi;
      height = (png.height * 72) / page.dpi;
      resources = `<< /XObject << /Im0 ${imageObject(png)} 0 R >> ${fontResource} >>`;
      content = `q ${width.toFixed(2)} 0 0 ${height.toFixed(2)} 0 0 cm /Im0 Do Q`;
      if (page.stamp) content += `\n${textLine(page.stamp, 8, 36, 18, page.hiddenStamp)}`;
    } else {
      const logo = page.logo ? `/XObject << /Im0 ${imageObject(readPng(page.logo))} 0 R >> ` : '';
      resources = `<< ${logo}${fontResource} >>`;
      content = page.text.map((line, index) => textLine(line, 12, 72, 720 - index * 16)).join('\n');
      if (page.logo) content += '\nq 72 0 0 72 468 700 cm /Im0 Do Q';
    }
    const contentId = add(stream('', Buffer.from(content, 'latin1')));
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${width.toFixed(2)} ${height.toFixed(2)}] /Resources ${resources} /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[catalogId - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`, 'latin1');
  objects[pagesId - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root ${catalogId} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

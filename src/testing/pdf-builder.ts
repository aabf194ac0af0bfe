import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** One line of text on a test PDF page. */
export interface PdfLine {
  text: string;
  /** Font size in points; 11 unless given. */
  size?: number;
  bold?: boolean;
  /** Left edge in points; 72 unless given. */
  x?: number;
  /** Extra space above the line, in points (a paragraph gap). */
  gapBefore?: number;
  /**
   * Baseline in points from the page's bottom edge (792 is the top): the text is placed there, as a table's cells
   * are, and the flow of the lines around it does not move.
   */
  y?: number;
}

/** The lines that set `rows` as a table: one placed line per cell, left edges at `columns`, baselines `leading` apart. */
export function pdfTableLines(
  rows: readonly (readonly string[])[],
  options: { columns: readonly number[]; top: number; leading?: number; size?: number },
): PdfLine[] {
  const leading = options.leading ?? 14;
  return rows.flatMap((row, r) =>
    row.flatMap((text, c) =>
      text === ''
        ? []
        : [
            {
              text,
              x: options.columns[c] ?? 72,
              y: options.top - r * leading,
              ...(options.size ? { size: options.size } : {}),
            },
          ],
    ),
  );
}

export interface PdfBuildOptions {
  /**
   * Adds a Standard security handler with a user password that is not empty, as a password-protected
   * PDF has: a reader cannot open it without the password.
   */
  encrypted?: boolean;
  /** Content streams compressed with FlateDecode, each padded with this many spaces (a stream-inflation bomb). */
  deflatePadding?: number;
}

/** A FlateDecode stream object's body (latin1), its data the compressed text. */
function deflatedStream(text: string): string {
  const data = deflateSync(Buffer.from(text, 'latin1'), { level: 9 }).toString('latin1');
  return `<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream`;
}

const escapePdfString = (text: string): string =>
  text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');

/**
 * Builds a small, valid PDF (Helvetica, WinAnsi text) with one content stream per page.
 * Lines are laid out top-down unless placed at a `y`; ASCII text only.
 */
export function buildPdf(pages: readonly (readonly PdfLine[])[], options: PdfBuildOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalogId = add('');
  const pagesId = add('');
  const regularId = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const boldId = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const lines of pages) {
    let y = 770;
    const ops: string[] = [];
    for (const line of lines) {
      const size = line.size ?? 11;
      if (line.y === undefined) y -= size * 1.25 + (line.gapBefore ?? 0);
      ops.push(
        `BT /${line.bold ? 'F2' : 'F1'} ${size} Tf ${line.x ?? 72} ${(line.y ?? y).toFixed(2)} Td (${escapePdfString(line.text)}) Tj ET`,
      );
    }
    const stream = ops.join('\n');
    const contentId =
      options.deflatePadding === undefined
        ? add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`)
        : add(deflatedStream(`${stream}\n${' '.repeat(options.deflatePadding)}`));
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${regularId} 0 R /F2 ${boldId} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[catalogId - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;

  let encryptRef = '';
  const fileId = randomBytes(16).toString('hex');
  if (options.encrypted) {
    // Random /O and /U entries: the empty password cannot match them, so a reader must ask for one.
    const o = randomBytes(32).toString('hex');
    const u = randomBytes(32).toString('hex');
    const encryptId = add(`<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 /O <${o}> /U <${u}> >>`);
    encryptRef = ` /Encrypt ${encryptId} 0 R`;
  }

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalogId} 0 R${encryptRef} /ID [<${fileId}> <${fileId}>] >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

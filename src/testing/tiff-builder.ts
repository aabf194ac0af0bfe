/** One frame of a test TIFF: 8-bit grayscale pixels, row by row. */
export interface GrayFrame {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A binary PGM (`P5`, what `pdftoppm -gray` writes without `-png`) → its pixels. */
export function readPgm(pgm: Buffer): GrayFrame {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString('latin1', 0, 64));
  if (!header?.[1] || !header[2]) throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = pgm.subarray(header[0].length, header[0].length + width * height);
  if (pixels.length !== width * height) throw new Error('PGM shorter than its size');
  return { width, height, pixels };
}

const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;

/**
 * A little-endian, uncompressed, multi-page grayscale TIFF: one IFD per frame, chained, each with its strip. What a
 * scanner's "save all pages as one TIFF" writes, so the tests need no TIFF tool. `dpi` is written as the resolution.
 */
export function buildTiff(frames: readonly GrayFrame[], dpi = 150): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  parts.push(header);
  let offset = 8;
  const firstIfdAt = 4;
  let linkAt: { part: Buffer; at: number } = { part: header, at: firstIfdAt };
  for (const frame of frames) {
    const stripAt = offset;
    parts.push(frame.pixels);
    offset += frame.pixels.length + (frame.pixels.length % 2);
    if (frame.pixels.length % 2) parts.push(Buffer.alloc(1));
    const resolutionAt = offset;
    const resolution = Buffer.alloc(8);
    resolution.writeUInt32LE(dpi, 0);
    resolution.writeUInt32LE(1, 4);
    parts.push(resolution);
    offset += 8;
    const entries: [tag: number, type: number, value: number][] = [
      [256, LONG, frame.width],
      [257, LONG, frame.height],
      [258, SHORT, 8],
      [259, SHORT, 1],
      [262, SHORT, 1],
      [273, LONG, stripAt],
      [277, SHORT, 1],
      [278, LONG, frame.height],
      [279, LONG, frame.pixels.length],
      [282, RATIONAL, resolutionAt],
      [283, RATIONAL, resolutionAt],
      [296, SHORT, 2],
    ];
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, value], index) => {
      const at = 2 + index * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === SHORT) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    linkAt.part.writeUInt32LE(offset, linkAt.at);
    linkAt = { part: ifd, at: ifd.length - 4 };
    parts.push(ifd);
    offset += ifd.length;
  }
  return Buffer.concat(parts);
}

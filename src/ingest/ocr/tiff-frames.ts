import type { FrameSize, UnreadableImage } from './image-types.ts';

const WIDTH = 256;
const HEIGHT = 257;
const SHORT = 3;
const LONG = 4;

/**
 * The size of every frame of a classic TIFF: its image file directories (IFDs) are a chain, one per page, each
 * holding its width and height. The chain is walked as libtiff walks it (every directory a decoder would read as a
 * page); a loop, an offset outside the file or a frame without a size makes the file unreadable. Stops after
 * `maxFrames + 1` frames: enough to know that a file has too many.
 */
export function tiffFrames(bytes: Buffer, maxFrames: number): FrameSize[] | UnreadableImage {
  if (bytes.length < 8) return { unreadable: 'its TIFF header is cut short' };
  const little = bytes.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number): number => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number): number => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const version = u16(2);
  if (version === 43) return { unreadable: 'it is a BigTIFF, which is not read here; save it as a classic TIFF' };
  if (version !== 42) return { unreadable: 'its TIFF header is broken' };

  const frames: FrameSize[] = [];
  const seen = new Set<number>();
  for (let ifd = u32(4); ifd !== 0 && frames.length <= maxFrames; ) {
    if (seen.has(ifd)) return { unreadable: 'its TIFF pages form a loop' };
    seen.add(ifd);
    if (ifd + 2 > bytes.length) return { unreadable: `its TIFF page ${frames.length + 1} lies outside the file` };
    const count = u16(ifd);
    const next = ifd + 2 + count * 12;
    if (next + 4 > bytes.length) return { unreadable: `its TIFF page ${frames.length + 1} is cut short` };
    let width = 0;
    let height = 0;
    for (let entry = ifd + 2; entry < next; entry += 12) {
      const tag = u16(entry);
      if (tag !== WIDTH && tag !== HEIGHT) continue;
      const type = u16(entry + 2);
      // One value, held in the entry itself (left-justified: a SHORT is the first two bytes).
      const value = u32(entry + 4) !== 1 ? 0 : type === SHORT ? u16(entry + 8) : type === LONG ? u32(entry + 8) : 0;
      if (tag === WIDTH) width = value;
      else height = value;
    }
    if (width === 0 || height === 0) return { unreadable: `its TIFF page ${frames.length + 1} declares no size` };
    frames.push({ width, height });
    ifd = u32(next);
  }
  if (frames.length === 0) return { unreadable: 'its TIFF holds no page' };
  return frames;
}

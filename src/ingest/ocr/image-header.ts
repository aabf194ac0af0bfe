import type { ImageFormat, ImageHeader, UnreadableImage } from './image-types.ts';
import { tiffFrames } from './tiff-frames.ts';

export type { FrameSize, ImageFormat, ImageHeader, UnreadableImage } from './image-types.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format and frame sizes of a PNG, JPEG or TIFF, read from its header alone, so that the pixels a decoder would
 * allocate are known (and bounded) before a decoder runs. The format is told by the bytes, never by the file's name.
 * Hand-written rather than a library's: the general ones read a TIFF's first frame only and a JPEG's baseline and
 * progressive frames only, and a bound must see every frame the decoder (leptonica, in tesseract) would decode.
 * `maxFrames` stops a TIFF's walk one frame past what the caller allows.
 */
export function readImageHeader(bytes: Buffer, maxFrames: number): ImageHeader | UnreadableImage {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return pngHeader(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes);
  const order = bytes.toString('latin1', 0, 2);
  if (order === 'II' || order === 'MM') {
    const frames = tiffFrames(bytes, maxFrames);
    return 'unreadable' in frames ? frames : { format: 'tiff', frames };
  }
  return { unreadable: 'it is not a PNG, JPEG or TIFF image' };
}

/** The first chunk of a PNG is its IHDR: width and height, 4 bytes each. Later frames (APNG) are not decoded. */
function pngHeader(bytes: Buffer): ImageHeader | UnreadableImage {
  if (bytes.length < 24 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return { unreadable: 'its PNG header is missing' };
  return sized('png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** Start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC, which share the range): they carry the image's size. */
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks a JPEG's marker segments up to its first start-of-frame, before any compressed data. */
function jpegHeader(bytes: Buffer): ImageHeader | UnreadableImage {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return { unreadable: 'its JPEG markers are broken' };
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes, and markers without a length (restart, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return { unreadable: 'its JPEG markers are broken' };
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) break;
      // After the length: precision (1 byte), height, width (2 bytes each). A height of 0 (set later by a DNL
      // marker) is not supported by libjpeg.
      return sized('jpeg', bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    at += 2 + length;
  }
  return { unreadable: 'its JPEG header has no frame size' };
}

function sized(format: ImageFormat, width: number, height: number): ImageHeader | UnreadableImage {
  if (width === 0 || height === 0) return { unreadable: `its ${format.toUpperCase()} header declares no size` };
  return { format, frames: [{ width, height }] };
}

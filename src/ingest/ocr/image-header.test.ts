import { describe, expect, it } from 'vitest';
import { buildTiff } from '../../testing/tiff-builder.ts';
import { pngHeaderOnly } from '../../testing/png-header.ts';
import { readImageHeader } from './image-header.ts';

const frame = (width: number, height: number) => ({ width, height, pixels: Buffer.alloc(width * height, 255) });

/** A JPEG's markers up to its frame header: SOI, an APP0 segment, then a start-of-frame `marker`. */
function jpeg(marker: number, width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46]);
  const sof = Buffer.from([0xff, marker, 0x00, 0x0b, 0x08, height >> 8, height & 255, width >> 8, width & 255, 1, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0x11, 0x00, 0xff, 0xd9])]);
}

describe('readImageHeader', () => {
  it('reads a PNG size from its IHDR, whatever the pixel data says', () => {
    expect(readImageHeader(pngHeaderOnly(100_000, 100_000), 10)).toEqual({
      format: 'png',
      frames: [{ width: 100_000, height: 100_000 }],
    });
  });

  it('reads a JPEG size from its first start-of-frame, baseline, progressive or lossless alike', () => {
    expect(readImageHeader(jpeg(0xc0, 640, 480), 10)).toEqual({
      format: 'jpeg',
      frames: [{ width: 640, height: 480 }],
    });
    expect(readImageHeader(jpeg(0xc2, 65_000, 65_000), 10)).toMatchObject({
      frames: [{ width: 65_000, height: 65_000 }],
    });
    expect(readImageHeader(jpeg(0xc3, 12, 34), 10)).toMatchObject({ frames: [{ width: 12, height: 34 }] });
    // 0xC4 (a Huffman table) sits in the SOF range but is not a frame.
    expect(readImageHeader(jpeg(0xc4, 640, 480), 10)).toEqual({ unreadable: 'its JPEG header has no frame size' });
  });

  it('reads every page of a multi-page TIFF', () => {
    const tiff = buildTiff([frame(20, 10), frame(30, 40), frame(5, 6)]);
    expect(readImageHeader(tiff, 10)).toEqual({
      format: 'tiff',
      frames: [
        { width: 20, height: 10 },
        { width: 30, height: 40 },
        { width: 5, height: 6 },
      ],
    });
    // One page past the bound is enough to know there are too many.
    expect(readImageHeader(tiff, 1)).toMatchObject({ frames: [{ width: 20 }, { width: 30 }] });
  });

  it('refuses what is not one of the formats, or is broken before its size', () => {
    expect(readImageHeader(Buffer.from('tesseract reads a text file as a list of image paths'), 10)).toEqual({
      unreadable: 'it is not a PNG, JPEG or TIFF image',
    });
    expect(readImageHeader(pngHeaderOnly(10, 10).subarray(0, 20), 10)).toEqual({
      unreadable: 'its PNG header is missing',
    });
    expect(readImageHeader(pngHeaderOnly(0, 10), 10)).toEqual({ unreadable: 'its PNG header declares no size' });
    expect(readImageHeader(jpeg(0xc0, 640, 0), 10)).toEqual({ unreadable: 'its JPEG header declares no size' });
    expect(readImageHeader(jpeg(0xc0, 640, 480).subarray(0, 12), 10)).toMatchObject({ unreadable: expect.any(String) });
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00]), 10)).toMatchObject({
      unreadable: expect.any(String),
    });
  });

  it('refuses a TIFF whose pages loop, point outside the file, or declare no size', () => {
    const tiff = buildTiff([frame(4, 4), frame(4, 4)]);
    const firstIfd = tiff.readUInt32LE(4);
    const looped = Buffer.from(tiff);
    // The last page's "next" points back at the first.
    looped.writeUInt32LE(firstIfd, looped.length - 4);
    expect(readImageHeader(looped, 10)).toEqual({ unreadable: 'its TIFF pages form a loop' });
    const outside = Buffer.from(tiff);
    outside.writeUInt32LE(tiff.length + 100, 4);
    expect(readImageHeader(outside, 10)).toEqual({ unreadable: 'its TIFF page 1 lies outside the file' });
    const sizeless = Buffer.from(tiff);
    sizeless.writeUInt32LE(0, firstIfd + 2 + 8);
    expect(readImageHeader(sizeless, 10)).toEqual({ unreadable: 'its TIFF page 1 declares no size' });
    const big = Buffer.from(tiff);
    big.writeUInt16LE(43, 2);
    expect(readImageHeader(big, 10)).toMatchObject({ unreadable: expect.stringContaining('BigTIFF') });
  });
});

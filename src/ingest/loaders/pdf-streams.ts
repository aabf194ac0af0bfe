import { constants, createInflate, inflateSync } from 'node:zlib';

/**
 * What a PDF's compressed streams inflate to, counted before pdf.js reads any of them: a 1 MB file of Flate streams
 * can hold gigabytes of page content, which pdf.js would inflate and parse whole (minutes, gigabytes of memory). A
 * stream is found by its `stream` keyword and inflated from the zlib header that must open it (pdf.js refuses Flate
 * data without one), whatever its dictionary says: zlib stops at the stream's own end, so neither `/Length` nor a
 * forged `endstream` inside the data can make it count less. Other filters (LZW, run length) are left to the
 * per-document time limit.
 */

/** Streams at most this large inflate in one call; larger ones are counted as they inflate and dropped. */
const SMALL_STREAM = 4 * 1024 * 1024;

/** Whether two bytes open a zlib stream (deflate method, a window that fits, the header check). */
const zlibHeader = (cmf: number | undefined, flg: number | undefined): boolean =>
  cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0;

interface Inflated {
  /** Bytes out. */
  out: number;
  /** Bytes of input the stream took (where the next stream can start). */
  read: number;
}

/** What one zlib stream inflates to, counting at most `limit + 1` bytes out (then stopping); corrupt data counts what came out. */
function countInflated(data: Buffer, limit: number): Promise<Inflated> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let count = 0;
    const done = () => resolve({ out: count, read: inflate.bytesWritten });
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > limit) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('end', done);
    inflate.on('error', done);
    inflate.on('close', done);
    inflate.end(data);
  });
}

/** Whether the PDF's Flate streams together inflate to more than `budget` bytes. */
export async function inflatesBeyond(bytes: Buffer, budget: number): Promise<boolean> {
  let total = 0;
  for (let at = bytes.indexOf('stream'); at >= 0; at = bytes.indexOf('stream', at + 6)) {
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    if (!zlibHeader(bytes[start], bytes[start + 1])) continue;
    const data = bytes.subarray(start);
    const remaining = budget - total;
    let inflated: Inflated;
    try {
      const { buffer, engine } = inflateSync(data, {
        info: true,
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: Math.min(remaining + 1, SMALL_STREAM),
      }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      inflated = { out: buffer.length, read: engine.bytesWritten };
    } catch (error) {
      // Beyond one call's output: counted as it inflates. Data zlib cannot read at all inflates to nothing here and
      // in pdf.js.
      inflated =
        (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
          ? await countInflated(data, remaining)
          : { out: 0, read: 0 };
    }
    total += inflated.out;
    if (total > budget) return true;
    // The next stream starts after this one's data: each byte is inflated once, however many keywords it holds.
    at = Math.max(at, start + inflated.read - 6);
  }
  return false;
}

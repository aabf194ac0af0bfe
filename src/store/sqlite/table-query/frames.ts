import { deserialize, serialize } from 'node:v8';

/** One message on the table query pipes: a 4-byte big-endian length, then `v8.serialize` of the message. */
export function frame(message: unknown): Buffer {
  const body = serialize(message);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/**
 * Reads frames from a byte stream and stops at a cap: a frame that announces more than `maxFrameBytes` is never
 * buffered beyond its header — `onOverflow` fires once and the rest of the stream is ignored.
 */
export class FrameReader<T> {
  maxFrameBytes = Number.POSITIVE_INFINITY;
  onMessage: ((message: T) => void) | undefined;
  onOverflow: (() => void) | undefined;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private overflowed = false;

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      // Only the header is joined until the whole frame is there, so a long frame is copied once, not per chunk.
      if ((this.chunks[0] as Buffer).length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const length = (this.chunks[0] as Buffer).readUInt32BE(0);
      if (length > this.maxFrameBytes) return this.overflow();
      if (this.buffered < 4 + length) return;
      const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
      const message = deserialize(all.subarray(4, 4 + length)) as T;
      const rest = all.subarray(4 + length);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.onMessage?.(message);
    }
  }

  private overflow(): void {
    this.overflowed = true;
    this.chunks = [];
    this.buffered = 0;
    this.onOverflow?.();
  }
}

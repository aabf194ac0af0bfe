import { basename } from 'node:path';
import { IngestError } from '../../errors/index.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a text-like file: UTF-8 (BOM stripped), or UTF-16 when it starts with a UTF-16 BOM.
 * Invalid UTF-8 is refused rather than guessed at, so no mojibake reaches the index.
 */
export function decodeText(bytes: Buffer, path: string): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return strictUtf8.decode(bytes.subarray(start));
  } catch (cause) {
    throw new IngestError('file_encoding', `${basename(path)} is not valid UTF-8 text.`, {
      cause,
      hint: 'Convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8`) and ingest it again.',
      details: { path },
    });
  }
}

/** `\r\n` and lone `\r` become `\n`, so every loader splits lines one way. */
export const normalizeNewlines = (text: string): string => text.replace(/\r\n?/g, '\n');

/** The file name without directory and last extension: the title of a table built from it. */
export function fileStem(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

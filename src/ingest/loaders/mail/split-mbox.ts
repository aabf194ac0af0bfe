import { limitExceeded, type IngestLimits } from '../../limits.ts';

const FROM_LINE = Buffer.from('\nFrom ');

/**
 * The messages of an mbox file: each starts at a line beginning with `From ` (the separator line, dropped), and a
 * body line that began so was written as `>From ` (mboxo/mboxrd), which is undone. The file is split on its bytes,
 * so each message is parsed in the charset it declares. More than `ingest.maxArchiveEntries` messages fail the file
 * before any is parsed. Empty when the file does not start with a separator line (then it is no mbox).
 */
export function splitMbox(bytes: Buffer, name: string, limits: IngestLimits): Buffer[] {
  if (!bytes.subarray(0, 5).equals(FROM_LINE.subarray(1))) return [];
  const starts = [0];
  for (let at = bytes.indexOf(FROM_LINE); at !== -1; at = bytes.indexOf(FROM_LINE, at + 1)) {
    starts.push(at + 1);
    if (starts.length > limits.maxArchiveEntries)
      throw limitExceeded('maxArchiveEntries', name, `holds more than ${limits.maxArchiveEntries} messages`, limits);
  }
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? bytes.length;
    const lineEnd = bytes.indexOf(0x0a, start);
    const message = bytes.subarray(lineEnd === -1 || lineEnd > end ? end : lineEnd + 1, end);
    // latin1 maps every byte to one character and back, so the unescaping leaves every other byte as it was.
    return Buffer.from(message.toString('latin1').replace(/^>(>*From )/gm, '$1'), 'latin1');
  });
}

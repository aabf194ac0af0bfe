import { basename } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { IngestError } from '../../errors/index.ts';
import { formatBytes, limitExceeded, type IngestLimits } from '../limits.ts';

/** One entry of a zip's central directory. */
interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const U32 = 0xffffffff;
const U16 = 0xffff;

/**
 * Checks a DOCX/XLSX's zip against the expansion bounds before a parser sees it, and returns the inflated parts
 * `keep` selects (the XML a loader pre-scans). The entry count and the declared sizes are checked first, from the
 * central directory alone; then every entry is inflated with the remaining budget as a hard cap, so an entry that
 * lies about its size stops at the limit instead of filling memory. The parsers read the same central directory and
 * the same bytes, so what they inflate is what was measured here. Anything a parser might read differently from this
 * reader (duplicate names, sizes that do not match, encryption, unknown compression) is refused as corrupt.
 */
export function readZipParts(
  bytes: Buffer,
  path: string,
  limits: IngestLimits,
  keep: (name: string) => boolean,
  corrupt: Corrupt,
): Map<string, Buffer> {
  const name = basename(path);
  const entries = centralDirectory(bytes, name, limits, corrupt);
  let declared = 0;
  const seen = new Set<string>();
  for (const entry of entries) {
    declared += entry.size;
    if (seen.has(entry.name)) throw corrupt(`the entry ${JSON.stringify(entry.name)} occurs twice`);
    seen.add(entry.name);
  }
  if (declared > limits.maxExpandedBytes) {
    throw limitExceeded('maxExpandedBytes', name, `declares ${formatBytes(declared)} of content`, limits);
  }

  const parts = new Map<string, Buffer>();
  let inflated = 0;
  for (const entry of entries) {
    if (entry.flags & 0x1) throw corrupt(`the entry ${JSON.stringify(entry.name)} is encrypted`);
    const data = entryData(bytes, entry, corrupt);
    let content: Buffer;
    if (entry.method === 0) {
      content = data;
    } else if (entry.method === 8) {
      const budget = limits.maxExpandedBytes - inflated;
      try {
        // One byte over the budget is enough to know it is over; the cap stops zlib there.
        content = inflateRawSync(data, { maxOutputLength: Math.max(1, budget + 1) });
      } catch (cause) {
        if ((cause as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw limitExceeded(
            'maxExpandedBytes',
            name,
            `expands to more than ${formatBytes(limits.maxExpandedBytes)}`,
            limits,
          );
        }
        throw corrupt(`the entry ${JSON.stringify(entry.name)} does not inflate`, cause);
      }
    } else {
      throw corrupt(`the entry ${JSON.stringify(entry.name)} uses compression method ${entry.method}`);
    }
    inflated += content.length;
    if (inflated > limits.maxExpandedBytes) {
      throw limitExceeded(
        'maxExpandedBytes',
        name,
        `expands to more than ${formatBytes(limits.maxExpandedBytes)}`,
        limits,
      );
    }
    if (content.length !== entry.size) {
      throw corrupt(`the entry ${JSON.stringify(entry.name)} holds ${content.length} bytes but declares ${entry.size}`);
    }
    if (keep(entry.name)) parts.set(entry.name, content);
  }
  return parts;
}

/** The loader's own `file_corrupt` error, given what is wrong with the zip. */
export type Corrupt = (why: string, cause?: unknown) => IngestError;

function centralDirectory(bytes: Buffer, name: string, limits: IngestLimits, corrupt: Corrupt): ZipEntry[] {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) throw corrupt('no end of central directory');
  let count = bytes.readUInt16LE(end + 10);
  let size = bytes.readUInt32LE(end + 12);
  let offset = bytes.readUInt32LE(end + 16);
  if (count === U16 || size === U32 || offset === U32) {
    const locator = end - 20;
    if (locator < 0 || bytes.readUInt32LE(locator) !== EOCD64_LOCATOR)
      throw corrupt('a zip64 archive without its locator');
    const at = safeNumber(bytes.readBigUInt64LE(locator + 8));
    if (at === undefined || at + 56 > bytes.length || bytes.readUInt32LE(at) !== EOCD64)
      throw corrupt('a broken zip64 directory');
    count = safeNumber(bytes.readBigUInt64LE(at + 32)) ?? Number.MAX_SAFE_INTEGER;
    size = safeNumber(bytes.readBigUInt64LE(at + 40)) ?? Number.MAX_SAFE_INTEGER;
    offset = safeNumber(bytes.readBigUInt64LE(at + 48)) ?? Number.MAX_SAFE_INTEGER;
  }
  if (count > limits.maxArchiveEntries) {
    throw limitExceeded('maxArchiveEntries', name, `has ${count.toLocaleString('en-US')} zip entries`, limits);
  }
  if (offset + size > bytes.length) throw corrupt('the central directory lies outside the file');

  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > offset + size || bytes.readUInt32LE(at) !== CENTRAL)
      throw corrupt(`central directory entry ${index + 1} is broken`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > offset + size) throw corrupt(`central directory entry ${index + 1} runs past the directory`);
    const entry: ZipEntry = {
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    };
    readZip64Extra(bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry, corrupt);
    entries.push(entry);
    at = next;
  }
  return entries;
}

/** Sizes and offset over 4 GiB sit in the zip64 extra field, in this order, for each one marked 0xFFFFFFFF. */
function readZip64Extra(extra: Buffer, entry: ZipEntry, corrupt: Corrupt): void {
  const wanted = (['size', 'compressedSize', 'localOffset'] as const).filter((field) => entry[field] === U32);
  if (wanted.length === 0) return;
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      if (length < wanted.length * 8 || at + 4 + length > extra.length) break;
      wanted.forEach((field, index) => {
        entry[field] = safeNumber(extra.readBigUInt64LE(at + 4 + index * 8)) ?? Number.MAX_SAFE_INTEGER;
      });
      return;
    }
    at += 4 + length;
  }
  throw corrupt(`the entry ${JSON.stringify(entry.name)} has no zip64 sizes`);
}

function entryData(bytes: Buffer, entry: ZipEntry, corrupt: Corrupt): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL)
    throw corrupt(`the entry ${JSON.stringify(entry.name)} has no local header`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) throw corrupt(`the entry ${JSON.stringify(entry.name)} is truncated`);
  return bytes.subarray(start, stop);
}

/** The end-of-central-directory record: the last signature within the final 64 KiB comment window. */
function findEndOfCentralDirectory(bytes: Buffer): number {
  const floor = Math.max(0, bytes.length - 22 - U16);
  for (let at = bytes.length - 22; at >= floor; at -= 1) {
    if (bytes.readUInt32LE(at) === EOCD) return at;
  }
  return -1;
}

const safeNumber = (value: bigint): number | undefined =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;

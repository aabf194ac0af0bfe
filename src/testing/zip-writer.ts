import { crc32, deflateRawSync } from 'node:zlib';

/** A file to put in a zip archive: its path inside the archive and its bytes, and how a hostile test lies about it. */
export interface ZipEntry {
  path: string;
  data: Buffer | string;
  /** `deflate` (the default) or `store` (no compression). */
  method?: 'deflate' | 'store';
  /** The uncompressed size written in both headers, instead of the true one (a bomb that lies about its size). */
  declaredSize?: number;
  /** General-purpose flags (bit 0: encrypted). */
  flags?: number;
  /** The compression method number written instead of the real one (e.g. 14, LZMA). */
  methodNumber?: number;
}

/**
 * Writes a minimal zip archive (deflate or store, no zip64). Enough for the OOXML files (.docx, .xlsx)
 * that loader tests build, so the tests do not depend on a zip library, and for the malformed ones they attack
 * the loaders with (sizes that lie, duplicate names, encryption, unknown compression).
 */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8');
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const stored = entry.method === 'store';
    const packed = stored ? raw : deflateRawSync(raw);
    const crc = crc32(raw) >>> 0;
    const method = entry.methodNumber ?? (stored ? 0 : 8);
    const flags = 0x0800 | (entry.flags ?? 0); // UTF-8 names
    const size = entry.declaredSize ?? raw.length;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10); // time + date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + packed.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

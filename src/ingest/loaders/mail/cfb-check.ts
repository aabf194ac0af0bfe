import { IngestError } from '../../../errors/index.ts';
import { formatBytes, limitExceeded, type IngestLimits } from '../../limits.ts';

const MAGIC = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const END_OF_CHAIN = 0xfffffffe;
const NO_STREAM = 0xffffffff;
const DIRECTORY_ENTRY = 128;
const MINI_SECTOR = 64;
const MINI_CUTOFF = 4096;
const HEADER_DIFAT = 109;

/**
 * Checks the structure of a compound file (MS-CFB: an Outlook .msg) before msgreader reads it. msgreader follows
 * sector chains and the directory tree as the file states them, with no check for loops or sizes: a 2 KiB file whose
 * chain points back at itself makes it allocate until the process dies. Here every chain is walked once, bounded by
 * the file's own sectors and refused when it loops or leaves the file; the directory is a tree (each entry reached
 * once); each stream's chain holds the size it claims; and what the streams add up to is bounded by
 * `ingest.maxExpandedBytes`. A file that passes reads in time and memory proportional to its size.
 */
export function checkCompoundFile(bytes: Buffer, name: string, limits: IngestLimits): void {
  const corrupt = (why: string) =>
    new IngestError('file_corrupt', `${name} is not a readable Outlook message (.msg): ${why}.`, {
      hint: 'Save the message again from Outlook (File › Save As › Outlook Message Format), or export it as .eml.',
    });
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(MAGIC)) throw corrupt('it is no compound file');
  const shift = bytes.readUInt16LE(0x1e);
  if ((shift !== 9 && shift !== 12) || bytes.readUInt16LE(0x20) !== 6) throw corrupt('its sector sizes are invalid');
  const size = 1 << shift;
  // Sector n starts at (n + 1) × size: the header takes the place of sector -1.
  const sectors = Math.floor(bytes.length / size) - 1;
  const u32 = (offset: number) => (offset + 4 <= bytes.length ? bytes.readUInt32LE(offset) : END_OF_CHAIN);
  const at = (sector: number, index: number) => u32((sector + 1) * size + 4 * index);
  const perSector = size / 4;

  // The FAT's own sectors: 109 listed in the header, the rest on the DIFAT chain.
  const fatCount = u32(0x2c);
  if (fatCount > sectors) throw corrupt('it declares more FAT sectors than it has');
  const fatSectors: number[] = [];
  for (let i = 0; i < Math.min(fatCount, HEADER_DIFAT); i += 1) fatSectors.push(u32(0x4c + 4 * i));
  const seenDifat = new Set<number>();
  for (
    let difat = u32(0x44);
    fatSectors.length < fatCount && difat !== END_OF_CHAIN;
    difat = at(difat, perSector - 1)
  ) {
    if (difat >= sectors || seenDifat.has(difat)) throw corrupt('its DIFAT chain loops or leaves the file');
    seenDifat.add(difat);
    for (let i = 0; i < perSector - 1 && fatSectors.length < fatCount; i += 1) fatSectors.push(at(difat, i));
  }
  if (fatSectors.length < fatCount || fatSectors.some((sector) => sector >= sectors))
    throw corrupt('its FAT lies outside the file');
  const next = (sector: number) => at(fatSectors[Math.floor(sector / perSector)] as number, sector % perSector);

  /** The sectors of the chain from `start`, each once and below `count`, else the file is corrupt. */
  const chain = (start: number, step: (sector: number) => number, count: number, what: string): number[] => {
    const seen = new Set<number>();
    const list: number[] = [];
    for (let sector = start; sector !== END_OF_CHAIN; sector = step(sector)) {
      if (sector >= count || seen.has(sector)) throw corrupt(`its ${what} chain loops or leaves the file`);
      seen.add(sector);
      list.push(sector);
    }
    return list;
  };
  const fatEntries = Math.min(sectors, fatCount * perSector);
  const directory = chain(u32(0x30), next, fatEntries, 'directory');
  const entries = (directory.length * size) / DIRECTORY_ENTRY;
  /** Where directory entry `index` starts in the file. */
  const entryAt = (index: number) =>
    ((directory[Math.floor((index * DIRECTORY_ENTRY) / size)] as number) + 1) * size +
    ((index * DIRECTORY_ENTRY) % size);
  const entry = (index: number, offset: number) => u32(entryAt(index) + offset);
  const miniFat = chain(u32(0x3c), next, fatEntries, 'mini FAT');
  const miniStream = chain(entry(0, 116), next, fatEntries, 'mini stream');
  const miniNext = (sector: number) =>
    u32((miniFat[Math.floor(sector / perSector)] ?? -1) * size + size + 4 * (sector % perSector));
  const miniSectors = Math.min(miniFat.length * perSector, (miniStream.length * size) / MINI_SECTOR);

  // The directory is a tree: from the root's child, every entry is reached at most once.
  let total = 0;
  const reached = new Set<number>([0]);
  const pending = [entry(0, 76)];
  while (pending.length > 0) {
    const index = pending.pop() as number;
    if (index === NO_STREAM) continue;
    if (index >= entries || reached.has(index)) throw corrupt('its directory loops or points outside itself');
    reached.add(index);
    pending.push(entry(index, 68), entry(index, 72), entry(index, 76));
    // Only streams (type 2) hold data; storages hold entries.
    if (bytes[entryAt(index) + 66] !== 2) continue;
    const length = entry(index, 120);
    if (length === 0) continue;
    const small = length < MINI_CUTOFF;
    const held = small
      ? chain(entry(index, 116), miniNext, miniSectors, 'stream').length * MINI_SECTOR
      : chain(entry(index, 116), next, fatEntries, 'stream').length * size;
    if (held < length) throw corrupt('a stream claims more bytes than its sectors hold');
    total += length;
    if (total > limits.maxExpandedBytes)
      throw limitExceeded(
        'maxExpandedBytes',
        name,
        `has streams of more than ${formatBytes(limits.maxExpandedBytes)}`,
        limits,
      );
  }
}

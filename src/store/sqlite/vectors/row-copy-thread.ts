/**
 * A thread (plain JS, evaluated: it needs no loader) that copies rows of a snapshot file into shared memory a step at
 * a time: the vector index's int8 codes (code-loader.ts) and its float rows (vector-snapshot.ts). It opens the file by
 * path and copies only if it is the file the store opened (same device and inode: snapshots are renamed into place,
 * never rewritten). `progress` is an Int32Array's buffer: [rows published, stop flag] and, with `signalEnd`, a third
 * slot set (and notified) when the thread ends, however it ends. Rows it did not publish are read from the file by the
 * thread that needs them.
 *
 * workerData: { path, dev, ino, offset (file position of row 0), rows, rowBytes, step, memory (SharedArrayBuffer),
 * memoryOffset (byte offset of row 0 in it), progress, signalEnd }.
 */
export const ROW_COPY_SOURCE = `
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { path, dev, ino, offset, rows, rowBytes, step, memory, memoryOffset, progress, signalEnd } = workerData;
const flags = new Int32Array(progress);
const PAGE = 4096;
let sink = 0;
let fd;
try {
  fd = openSync(path, 'r');
  const stat = fstatSync(fd, { bigint: true });
  if (String(stat.dev) === dev && String(stat.ino) === ino) {
    const bytes = new Uint8Array(memory, memoryOffset, rows * rowBytes);
    for (let row = 0; row < rows && Atomics.load(flags, 1) === 0; ) {
      const count = Math.min(step, rows - row);
      const end = (row + count) * rowBytes;
      for (let at = row * rowBytes; at < end; ) {
        const read = readSync(fd, bytes, at, end - at, offset + at);
        if (read === 0) throw new Error('truncated');
        at += read;
      }
      // Pages read(2) filled in memory never touched before cost the first user-space access a fault each (measured
      // on this VM: 256 random float rows 3-65 ms on their first read against 0.3 ms once touched); one load per page
      // here takes that off the searching threads.
      for (let at = row * rowBytes + ((PAGE - ((memoryOffset + row * rowBytes) % PAGE)) % PAGE); at < end; at += PAGE)
        sink ^= bytes[at];
      row += count;
      Atomics.store(flags, 0, row);
    }
  }
} catch {
  // Rows not published are read from the file by the thread that needs them.
} finally {
  if (fd !== undefined) closeSync(fd);
  workerData.touched = sink; // keeps the page loads from being optimised away
  if (signalEnd) {
    Atomics.store(flags, 2, 1);
    Atomics.notify(flags, 2);
  }
}
`;

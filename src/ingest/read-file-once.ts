import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { IngestError } from '../errors/index.ts';
import { formatBytes } from './limits.ts';

/**
 * Reads a file once, through one handle, and returns exactly the bytes read: they are what is hashed, parsed and
 * stored. The size is checked before reading (`ingest.maxFileBytes`), and the read is capped one byte past the size
 * the handle reported, so a file that grows cannot be read past its limit. A file that changed while it was read
 * (its size, modification or change time moved, or it ended early or late) fails with `file_changed` rather than be
 * stored as a half-written version; the version already stored stays.
 */
export async function readFileOnce(path: string, docId: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    // Non-blocking: a FIFO given as a file must fail, not hang the batch.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new IngestError('file_unreadable', `${docId} cannot be opened (${code ?? String(cause)}).`, {
      cause,
      hint: code === 'ENOENT' ? 'It was removed after the folder was listed; ingest again.' : 'Check its permissions.',
    });
  }
  try {
    const before = await handle.stat({ bigint: true });
    if (!before.isFile()) {
      throw new IngestError('file_unreadable', `${docId} is not a regular file.`, {
        hint: 'Ingest regular files only (not devices, pipes or sockets).',
      });
    }
    const size = Number(before.size);
    if (size === 0) throw new IngestError('file_empty', `${docId} is empty (0 bytes).`);
    if (size > maxBytes) {
      throw new IngestError(
        'file_too_large',
        `${docId} is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit.`,
        {
          hint: 'Raise it with --max-file-bytes or EVIDENT_MAX_FILE_BYTES, or split the file.',
        },
      );
    }
    const buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const after = await handle.stat({ bigint: true });
    if (
      length !== size ||
      after.size !== before.size ||
      after.mtimeNs !== before.mtimeNs ||
      after.ctimeNs !== before.ctimeNs
    ) {
      throw new IngestError(
        'file_changed',
        `${docId} changed while it was read, so no complete version of it was read.`,
        {
          hint: 'Ingest it again once it is no longer being written; the version stored before (if any) is kept.',
        },
      );
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (IngestError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new IngestError('file_unreadable', `${docId} cannot be read (${code ?? String(error)}).`, {
      cause: error,
      hint: 'Check the disk and the file.',
    });
  } finally {
    await handle.close();
  }
}

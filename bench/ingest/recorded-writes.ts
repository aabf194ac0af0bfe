import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import type { DocumentWrite } from '../../src/store/ports/document-store.ts';

/** Document writes recorded by `store-writes.ts --record`, as transactions: as recorded, or `per` documents each. */
export interface RecordedWrites {
  batches: DocumentWrite[][];
  documents: number;
  chunks: number;
}

export function readRecordedWrites(file: string, per = 0): RecordedWrites {
  const recorded = deserialize(readFileSync(file)) as DocumentWrite[][];
  const flat = recorded.flat();
  const batches =
    per > 0
      ? Array.from({ length: Math.ceil(flat.length / per) }, (_, i) => flat.slice(i * per, (i + 1) * per))
      : recorded;
  return { batches, documents: flat.length, chunks: flat.reduce((n, write) => n + write.chunks.length, 0) };
}

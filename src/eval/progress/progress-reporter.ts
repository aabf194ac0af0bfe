import type { IngestProgress } from '../../ingest/ingest-progress.ts';

/** Line-based progress on stderr, shared by every evaluation command (one line per step, readable in CI logs). */
export interface ProgressReporter {
  /** Ingestion: every `every` documents and at the end. */
  ingest(progress: IngestProgress): void;
  /** `label: done/total` plus an optional note. */
  count(label: string, done: number, total: number, note?: string): void;
}

export function createProgressReporter(
  write: (text: string) => void,
  options: { ingestEvery?: number } = {},
): ProgressReporter {
  const every = options.ingestEvery ?? 500;
  return {
    ingest({ filesDone, filesTotal, chunks }) {
      if (filesDone % every === 0 || filesDone === filesTotal)
        write(`ingest ${filesDone}/${filesTotal} documents, ${chunks} chunks\n`);
    },
    count(label, done, total, note) {
      write(`${label}: ${done}/${total}${note ? ` ${note}` : ''}\n`);
    },
  };
}

import cliProgress from 'cli-progress';
import type { IngestProgress } from '../ingest/ingest-progress.ts';
import type { CliIo } from './io.ts';

export interface ProgressRenderer {
  update(progress: IngestProgress): void;
  stop(): void;
}

/** A progress bar (files, pages, chunks, rate, ETA) on a terminal; one line per file otherwise. */
export function ingestProgressRenderer(io: CliIo): ProgressRenderer {
  return io.isTty ? barRenderer() : lineRenderer(io);
}

function barRenderer(): ProgressRenderer {
  const bar = new cliProgress.SingleBar(
    {
      format:
        'ingest [{bar}] {value}/{total} files | {pages} pages | {chunks} chunks | {rate} chunks/s | ETA {eta_formatted} | {file}',
      hideCursor: true,
      etaBuffer: 20,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(progress) {
      const payload = {
        pages: progress.pages,
        chunks: progress.chunks,
        rate: rate(progress),
        file: progress.last.docId,
      };
      if (!started) {
        bar.start(progress.filesTotal, 0, payload);
        started = true;
      }
      bar.update(progress.filesDone, payload);
    },
    stop: () => bar.stop(),
  };
}

function lineRenderer(io: CliIo): ProgressRenderer {
  return {
    update(progress) {
      const { last } = progress;
      const at = `[${progress.filesDone}/${progress.filesTotal}]`;
      if (last.status === 'failed') {
        io.err(`${at} failed ${last.docId}: ${last.error?.message ?? 'unknown error'}\n`);
      } else {
        const pages = last.pages ? `, ${last.pages} pages` : '';
        const tables = last.tables ? `, ${last.tables} tables` : '';
        const attachments = last.attachments?.length ? `, ${last.attachments.length} attachments` : '';
        const figures = last.figures
          ? `, ${last.figures.described} of ${last.figures.described + last.figures.notDescribed} figures described`
          : '';
        io.err(
          `${at} ${last.status} ${last.docId} (${last.chunks} chunks${pages}${tables}${attachments}${figures}) ${rate(progress)} chunks/s\n`,
        );
      }
    },
    stop() {},
  };
}

const rate = (progress: IngestProgress) =>
  progress.elapsedMs > 0 ? Math.round((progress.chunks * 1000) / progress.elapsedMs) : 0;

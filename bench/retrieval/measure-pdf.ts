/**
 * Ingestion of one real PDF through `Ingestor.ingest([path])`, each run into a fresh store (so the embedding cache
 * is empty and every chunk is really embedded). The first run also pays for loading the PDF library.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { createEvident } from '../../src/evident.ts';
import { loaderFor } from '../../src/ingest/loaders/index.ts';
import { memorySnapshot, summarize, type LatencySummary, type MemorySnapshot } from './stats.ts';

export interface PdfOptions {
  path: string;
  runs: number;
  workDir: string;
  log: (line: string) => void;
}

export interface PdfRun {
  ms: number;
  pages: number;
  chunks: number;
}

export interface PdfResult {
  file: string;
  bytes: number;
  pages: number;
  chunks: number;
  /** The first run, including the PDF library's first load. */
  cold: PdfRun & { pagesPerSec: number; chunksPerSec: number };
  /** The other runs. */
  warm: { ms: LatencySummary; pagesPerSec: number; chunksPerSec: number };
  /** Text extraction alone (the loader), warm, per run. */
  extractMs: LatencySummary;
  memory: MemorySnapshot;
}

export async function measurePdf(options: PdfOptions): Promise<PdfResult> {
  const runs: PdfRun[] = [];
  for (let run = 0; run < Math.max(2, options.runs); run++) {
    const config = loadConfig({ env: {}, cwd: options.workDir, flags: { db: join(options.workDir, `pdf-${run}.db`) } });
    const evident = await createEvident(config);
    const started = performance.now();
    const summary = await evident.ingestor.ingest([options.path]);
    const ms = performance.now() - started;
    await evident.close();
    if (summary.failed > 0 || summary.added !== 1) {
      throw new Error(`PDF ingestion failed: ${summary.outcomes[0]?.error?.message ?? JSON.stringify(summary)}`);
    }
    runs.push({ ms, pages: summary.pages, chunks: summary.chunks });
    options.log(`  pdf run ${run + 1}: ${summary.pages} pages, ${summary.chunks} chunks in ${ms.toFixed(0)} ms`);
  }

  const bytes = await readFile(options.path);
  const loader = loaderFor(options.path);
  if (!loader) throw new Error(`no loader for ${options.path}`);
  const extract: number[] = [];
  for (let run = 0; run < Math.max(1, options.runs - 1); run++) {
    const started = performance.now();
    await loader.load(bytes, options.path);
    extract.push(performance.now() - started);
  }

  const [cold, ...warmRuns] = runs as [PdfRun, ...PdfRun[]];
  const warm = summarize(warmRuns.map((run) => run.ms));
  return {
    file: options.path,
    bytes: bytes.length,
    pages: cold.pages,
    chunks: cold.chunks,
    cold: { ...cold, pagesPerSec: (cold.pages / cold.ms) * 1000, chunksPerSec: (cold.chunks / cold.ms) * 1000 },
    warm: { ms: warm, pagesPerSec: (cold.pages / warm.p50) * 1000, chunksPerSec: (cold.chunks / warm.p50) * 1000 },
    extractMs: summarize(extract),
    memory: memorySnapshot(),
  };
}

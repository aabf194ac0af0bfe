import { parentPort, workerData } from 'node:worker_threads';
import type { EvidentConfig } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createEmbedder } from '../models/create-embedder.ts';
import type { ChunkOptions } from './chunking.ts';
import type { IngestLimits } from './limits.ts';
import { processDocument, type DocumentResult, type DocumentTask } from './process-document.ts';

/** What every task of one pool shares. */
export interface IngestWorkerData {
  chunk: ChunkOptions;
  limits: IngestLimits;
  /** The embedder's `workerSpec`, when documents are embedded in the worker. */
  embedderSpec: string | undefined;
}

/** A log line made while processing, replayed by the thread that owns the logger. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

export interface WorkerAnswer {
  result: DocumentResult;
  logs: LogEntry[];
}

/** A logger that keeps its lines for the answer. */
export function collectingLogger(into: LogEntry[]): Logger {
  const at = (level: LogEntry['level']) => (message: string, fields?: Record<string, unknown>) =>
    void into.push({ level, message, ...(fields ? { fields } : {}) });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const port = parentPort;
if (port) {
  const data = workerData as IngestWorkerData;
  // A `workerSpec` names an embedder that createEmbedder builds from the spec alone (no files, keys or URLs).
  const embedder = data.embedderSpec
    ? await createEmbedder({ embedder: data.embedderSpec } as EvidentConfig)
    : undefined;
  port.on('message', async ({ id, task }: { id: number; task: DocumentTask }) => {
    const logs: LogEntry[] = [];
    const result = await processDocument(task, {
      chunk: data.chunk,
      limits: data.limits,
      logger: collectingLogger(logs),
      ...(embedder ? { embedder } : {}),
    });
    // Vectors move rather than copy; one vector stands for every identical chunk text, so each buffer goes once.
    // A version's analysed forms share one buffer, which moves too.
    const versions = result.status === 'write' ? [result, ...(result.attachments ?? [])] : [];
    const transfer = [
      ...new Set(
        versions.flatMap((version) =>
          [...(version.vectors ?? []), ...(version.write.analysed ?? [])].map((view) => view.buffer as ArrayBuffer),
        ),
      ),
    ];
    port.postMessage({ id, result: { result, logs } satisfies WorkerAnswer }, transfer);
  });
  port.postMessage({ ready: true });
}

/** Progress of an ingestion run, emitted after each file. Renderers (bar, lines, SSE) read only this. */
export interface IngestProgress {
  filesDone: number;
  filesTotal: number;
  pages: number;
  chunks: number;
  elapsedMs: number;
  /** The file just finished. */
  last: IngestOutcome;
}

export type IngestStatus = 'added' | 'updated' | 'unchanged' | 'failed';

export interface IngestOutcome {
  path: string;
  docId: string;
  status: IngestStatus;
  chunks: number;
  pages: number;
  tables: number;
  /** Its captioned figures: how many the vision model described, how many it did not (none offline). */
  figures?: { described: number; notDescribed: number };
  /** The doc_ids of the documents found inside this file and written with it (an e-mail's attachments). */
  attachments?: string[];
  /** Set when status is `failed`: a stable code and a message that says what to do (ending with `hint`, when there is one). */
  error?: { code: string; message: string; hint?: string };
}

export interface IngestSummary {
  outcomes: IngestOutcome[];
  added: number;
  updated: number;
  unchanged: number;
  failed: number;
  chunks: number;
  pages: number;
  /** Present when some document captions figures: those described by the vision model and those not. */
  figures?: { described: number; notDescribed: number };
  elapsedMs: number;
}

export function summarize(outcomes: IngestOutcome[], elapsedMs: number): IngestSummary {
  const count = (status: IngestStatus) => outcomes.filter((o) => o.status === status).length;
  const figured = outcomes.flatMap((o) => (o.figures ? [o.figures] : []));
  const figures =
    figured.length === 0
      ? {}
      : {
          figures: {
            described: figured.reduce((sum, f) => sum + f.described, 0),
            notDescribed: figured.reduce((sum, f) => sum + f.notDescribed, 0),
          },
        };
  return {
    outcomes,
    added: count('added'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    chunks: outcomes.reduce((sum, o) => sum + o.chunks, 0),
    pages: outcomes.reduce((sum, o) => sum + o.pages, 0),
    ...figures,
    elapsedMs,
  };
}

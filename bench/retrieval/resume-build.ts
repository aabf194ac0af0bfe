/**
 * Where an unfinished build of the synthetic corpus stands, so a run with `--store-dir` continues it instead of
 * starting again (a 1M-chunk build takes hours on a loaded machine, and a stopped process used to lose all of it).
 *
 * The ingestor writes each document in a transaction of its own, so a stopped build holds whole documents: the first
 * ones of the corpus, and perhaps a few of the batch it was writing. The build continues from the first document
 * missing; documents after it that are already in are ingested again as unchanged (their content hash), at no write.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { SyntheticCorpus } from './corpus.ts';

export interface ResumePoint {
  /** Corpus documents [0, documents) are all in the store: ingestion continues with this index. */
  documents: number;
  /** Chunks of those documents. */
  chunks: number;
  /** How many of those documents are restricted (from the corpus, which is deterministic). */
  restricted: number;
}

const DOC_ID = /^synthetic\/(\d+)\.txt$/;

/** The resume point of the store at `dbPath`, or undefined when there is no store, or nothing of the corpus in it. */
export function resumePoint(dbPath: string, corpus: SyntheticCorpus): ResumePoint | undefined {
  if (!existsSync(dbPath)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT doc_id AS docId, chunk_count AS chunks FROM documents').all() as {
      docId: string;
      chunks: number;
    }[];
    const chunksOf = new Map<number, number>();
    for (const row of rows) {
      const match = DOC_ID.exec(row.docId);
      if (match) chunksOf.set(Number(match[1]), row.chunks);
    }
    let documents = 0;
    let chunks = 0;
    let restricted = 0;
    for (; chunksOf.has(documents); documents++) {
      chunks += chunksOf.get(documents) as number;
      if (corpus.document(documents).record.acl?.length) restricted++;
    }
    return documents > 0 ? { documents, chunks, restricted } : undefined;
  } catch {
    // Not a store this bench can read (no documents table yet, a file cut short): build from nothing.
    return undefined;
  } finally {
    db?.close();
  }
}

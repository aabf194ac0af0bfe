import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ValidationError } from '../../errors/index.ts';
import type { Judgements } from '../metrics/ranking-metrics.ts';

export interface BeirDocument {
  id: string;
  title: string;
  text: string;
}

export interface BeirDataset {
  corpus: BeirDocument[];
  /** Only queries that have judgements in the split. */
  queries: { id: string; text: string }[];
  qrels: Map<string, Judgements>;
}

/** Reads a BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv. */
export async function readBeirDataset(dir: string, split: string): Promise<BeirDataset> {
  const paths = {
    corpus: join(dir, 'corpus.jsonl'),
    queries: join(dir, 'queries.jsonl'),
    qrels: join(dir, 'qrels', `${split}.tsv`),
  };
  for (const [what, path] of Object.entries(paths)) {
    if (!existsSync(path)) {
      throw new ValidationError(`${dir} is not a BEIR folder for split "${split}": ${what} file ${path} is missing.`, {
        hint: 'A BEIR folder holds corpus.jsonl, queries.jsonl and qrels/<split>.tsv.',
      });
    }
  }
  const qrels = await readQrels(paths.qrels);
  const corpus: BeirDocument[] = [];
  for await (const row of jsonLines(paths.corpus)) {
    corpus.push({ id: String(row._id), title: String(row.title ?? ''), text: String(row.text ?? '') });
  }
  const queries: BeirDataset['queries'] = [];
  for await (const row of jsonLines(paths.queries)) {
    const id = String(row._id);
    if (qrels.has(id)) queries.push({ id, text: String(row.text ?? '') });
  }
  return { corpus, queries, qrels };
}

async function readQrels(path: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  const lines = (await readFile(path, 'utf8')).split('\n');
  for (const [index, line] of lines.entries()) {
    const [queryId, docId, score] = line.trim().split('\t');
    if (!queryId || (index === 0 && queryId === 'query-id')) continue;
    if (!docId || score === undefined || Number.isNaN(Number(score))) {
      throw new ValidationError(`${path}:${index + 1}: expected "query-id<TAB>corpus-id<TAB>score".`);
    }
    const judgements = qrels.get(queryId) ?? new Map<string, number>();
    judgements.set(docId, Number(score));
    qrels.set(queryId, judgements);
  }
  return qrels;
}

async function* jsonLines(path: string): AsyncGenerator<Record<string, unknown>> {
  let lineNumber = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    lineNumber++;
    if (!line.trim()) continue;
    try {
      yield JSON.parse(line) as Record<string, unknown>;
    } catch (cause) {
      throw new ValidationError(`${path}:${lineNumber} is not valid JSON.`, { cause });
    }
  }
}

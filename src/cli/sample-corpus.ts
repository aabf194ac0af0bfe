import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Evident } from '../evident.ts';
import type { IngestSummary } from '../ingest/ingest-progress.ts';

const SAMPLES = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'samples');
/** The sample corpus folder: its documents' doc_ids are relative to it, so `serve --sample` serves their files from it. */
export const SAMPLE_CORPUS_DIR = join(SAMPLES, 'corpus');

/**
 * Fills an empty store with the bundled sample corpus and its users (`samples/users.json`), so a first
 * `npm start` has something to search. A store with any document is left alone. Undefined when nothing was done.
 */
export async function ensureSampleCorpus(evident: Evident): Promise<IngestSummary | undefined> {
  if ((await evident.store.stats()).documents > 0) return undefined;
  const users = JSON.parse(await readFile(join(SAMPLES, 'users.json'), 'utf8')) as { name: string; groups: string[] }[];
  for (const user of users) await evident.store.upsertUser({ name: user.name, groups: user.groups });
  return evident.ingestor.ingest([SAMPLE_CORPUS_DIR]);
}

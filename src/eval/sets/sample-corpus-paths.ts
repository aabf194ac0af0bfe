import { fileURLToPath } from 'node:url';

/** The project's own eval set and what it runs on: the bundled sample corpus and its users. */
export const SAMPLE_CORPUS_CASES = fileURLToPath(new URL('./sample-corpus.jsonl', import.meta.url));
export const SAMPLE_CORPUS_DIR = fileURLToPath(new URL('../../../samples/corpus', import.meta.url));
export const SAMPLE_USERS = fileURLToPath(new URL('../../../samples/users.json', import.meta.url));

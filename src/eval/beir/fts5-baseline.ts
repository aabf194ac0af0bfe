import Database from 'better-sqlite3';
import type { BeirDocument } from './beir-dataset.ts';

/**
 * The free baseline Evident's BM25 is held against: SQLite FTS5 `bm25()` over the raw BEIR documents with FTS5's
 * own tokenizer, run as `../shared/benchmarks/peers-*.md` ran it. Each document is one row, title and text in one
 * column (no chunking); a query is the OR of its tokens, each double-quoted so no query can inject FTS5 syntax.
 * Tokens are kept as the query repeats them: FTS5 scores every phrase of the query, so a repeated word counts again,
 * as in any BM25 with query term frequency.
 */
export const FTS5_BASELINES = {
  fts5: 'porter unicode61',
  'fts5-unicode61': 'unicode61',
} as const;
export type Fts5BaselineName = keyof typeof FTS5_BASELINES;

export const isFts5BaselineName = (name: string): name is Fts5BaselineName => Object.hasOwn(FTS5_BASELINES, name);

export interface Fts5Baseline {
  readonly name: Fts5BaselineName;
  /** The FTS5 `tokenize` argument. */
  readonly tokenizer: string;
  readonly buildMs: number;
  /** Doc ids, best first, at most `depth`. */
  search(query: string, depth: number): string[];
  close(): void;
}

/** unicode61 separates tokens at every character that is not a letter, a digit or private use. */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** The FTS5 MATCH expression of a free-text query: its unicode61 tokens, quoted, OR-ed; undefined when none. */
export function fts5OrQuery(query: string): string | undefined {
  const tokens = query.match(TOKEN) ?? [];
  return tokens.length === 0 ? undefined : tokens.map((token) => `"${token}"`).join(' OR ');
}

/** Builds the baseline index in memory (nothing is written to disk). */
export function buildFts5Baseline(corpus: readonly BeirDocument[], name: Fts5BaselineName = 'fts5'): Fts5Baseline {
  const tokenizer = FTS5_BASELINES[name];
  const started = performance.now();
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(doc_id UNINDEXED, body, tokenize = '${tokenizer}')`);
  const insert = db.prepare('INSERT INTO docs (doc_id, body) VALUES (?, ?)');
  db.transaction(() => {
    for (const doc of corpus) insert.run(doc.id, [doc.title, doc.text].filter(Boolean).join('\n'));
  })();
  const buildMs = performance.now() - started;
  const select = db.prepare('SELECT doc_id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid LIMIT ?').pluck();
  return {
    name,
    tokenizer,
    buildMs,
    search(query, depth) {
      const match = fts5OrQuery(query);
      return match === undefined ? [] : (select.all(match, Math.floor(depth)) as string[]);
    },
    close: () => db.close(),
  };
}

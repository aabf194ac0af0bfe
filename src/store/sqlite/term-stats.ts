import type { SearchTerm } from '../search-terms.ts';
import { VISIBLE_DOC_PKS } from './acl-sql.ts';
import type { SqliteConnection } from './connection.ts';
import { TermBlockCache } from './keyword-postings/block-cache.ts';
import type { Corpus } from './keyword-postings/term-lists.ts';

const TERM_STATS_CACHE_SIZE = 50_000;

/** FTS5's bm25() constants (fts5_aux.c): k1 = 1.2, b = 0.75; an IDF at or below 0 becomes 1e-6. */
const K1 = 1.2;
export const CLAMPED_IDF = 1e-6;

/** A query term with what bm25() will make of it. */
export interface TermWeight extends SearchTerm {
  /** Chunks containing the term (FTS5's nHit for its phrase). */
  df: number;
  /** The IDF bm25() computes for the term: ln((N − df + 0.5) / (df + 0.5)), 1e-6 when that is ≤ 0. */
  idf: number;
  /**
   * More than the term can add to any chunk's score: count × idf × (k1 + 1), since bm25()'s tf part
   * tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)) stays below k1 + 1. Rounded up a little against float error.
   */
  maxScore: number;
}

/**
 * Row count and per-term document frequencies of the keyword index, read from FTS5's own structures (its averages
 * record, the bm25() N, and the fts5vocab table) and valid for one generation of the store.
 */
export class TermStats {
  private stats: { generation: number; rows: number; df: Map<string, number> } = {
    generation: -1,
    rows: 0,
    df: new Map(),
  };

  constructor(private readonly conn: SqliteConnection) {}

  /** bm25()'s view of each term; undefined when a prefix term is among them (its phrase has no single df). */
  weights(terms: readonly SearchTerm[]): TermWeight[] | undefined {
    if (terms.some((term) => term.prefix)) return undefined;
    const generation = this.conn.generation();
    if (this.stats.generation !== generation) this.stats = { generation, rows: this.readRowCount(), df: new Map() };
    const { rows, df } = this.stats;
    const lookup = this.conn.stmt('SELECT doc FROM chunk_fts_vocab WHERE term = ?');
    return terms.map((term) => {
      let count = df.get(term.term);
      if (count === undefined) {
        count = (lookup.get(term.term) as { doc: number } | undefined)?.doc ?? 0;
        if (df.size >= TERM_STATS_CACHE_SIZE) df.clear();
        df.set(term.term, count);
      }
      const raw = Math.log((rows - count + 0.5) / (count + 0.5));
      const idf = raw > 0 ? raw : CLAMPED_IDF;
      return { ...term, df: count, idf, maxScore: term.count * idf * (K1 + 1) * (1 + 1e-9) };
    });
  }

  /** N of bm25(): the row count FTS5 keeps in its averages record (rowid 1 of the data table), a varint. */
  private readRowCount(): number {
    return this.readAverages()[0] ?? 0;
  }

  /** FTS5's averages record: the row count, then the tokens of each column (one here), as varints. */
  private readAverages(): number[] {
    const row = this.conn.stmt('SELECT block FROM chunk_fts_data WHERE id = 1').get() as
      | { block: Uint8Array }
      | undefined;
    if (!row) return [];
    const values: number[] = [];
    for (let at = 0; at < row.block.length; ) {
      const [value, size] = readVarintAt(row.block, at);
      values.push(value);
      at += size;
    }
    return values;
  }

  /** The keyword postings' blocks of recently searched terms, for this generation. */
  readonly blocks = new TermBlockCache();
  private corpusOf: { generation: number; corpus: Corpus } = { generation: -1, corpus: { rows: 0, avgLength: 0 } };
  private visible: { generation: number; byKeys: Map<string, Uint8Array> } = { generation: -1, byKeys: new Map() };

  /** bm25()'s N and average row length, as FTS5 computes them from its averages record. */
  corpus(): Corpus {
    const generation = this.conn.generation();
    if (this.corpusOf.generation !== generation) {
      const [rows = 0, tokens = 0] = this.readAverages();
      this.corpusOf = { generation, corpus: { rows, avgLength: tokens / rows } };
    }
    return this.corpusOf.corpus;
  }

  /**
   * The documents `keys` may see, as a byte per document pk (1 = visible), read once per store generation and
   * set of keys (ACL rows change only through content writes, which bump the generation).
   */
  visibleDocuments(keys: readonly string[]): Uint8Array {
    const generation = this.conn.generation();
    if (this.visible.generation !== generation) this.visible = { generation, byKeys: new Map() };
    const cacheKey = JSON.stringify([...new Set(keys)].sort());
    let docs = this.visible.byKeys.get(cacheKey);
    if (!docs) {
      // Rows as objects: the statement is shared (conn.stmt caches by SQL) with the vector cache.
      const pks = (this.conn.stmt(`SELECT pk FROM ${VISIBLE_DOC_PKS}`).all({ keys: cacheKey }) as { pk: number }[]).map(
        (row) => row.pk,
      );
      docs = new Uint8Array(pks.reduce((max, pk) => Math.max(max, pk), 0) + 1);
      for (const pk of pks) docs[pk] = 1;
      if (this.visible.byKeys.size >= VISIBLE_CACHE_SIZE) this.visible.byKeys.clear();
      this.visible.byKeys.set(cacheKey, docs);
    }
    return docs;
  }
}

const VISIBLE_CACHE_SIZE = 64;

/** SQLite's varint at `at`: its value and its size in bytes. */
function readVarintAt(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 8 && at + i < bytes.length; i++) {
    const byte = bytes[at + i] as number;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  return [value * 256 + (bytes[at + 8] ?? 0), 9];
}

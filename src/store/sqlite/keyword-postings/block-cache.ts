import type { SqliteConnection } from '../connection.ts';
import type { StoredBlocks } from './term-lists.ts';

/** Bytes of postings the cache keeps (the blocks' data); past it, the least recently read terms go. */
const CACHE_BYTES = 48 * 1024 * 1024;

/**
 * Terms' blocks as last read from `keyword_blocks` and `keyword_recent`, valid for one store generation (every content write bumps it, so
 * a write in this or another process empties the cache). Reading a frequent term's hundreds of block rows costs more
 * than ranking them; queries share their frequent terms, so those stay here.
 */
export class TermBlockCache {
  private generation = -1;
  private bytes = 0;
  /** In least recently read order (a Map keeps insertion order; a hit is moved to the end). */
  private readonly terms = new Map<string, { blocks: StoredBlocks; bytes: number }>();

  constructor(private readonly capacity = CACHE_BYTES) {}

  /** The term's blocks in pk order, from the cache or the store as of `generation`. */
  read(conn: SqliteConnection, generation: number, term: string): StoredBlocks {
    if (generation !== this.generation) {
      this.terms.clear();
      this.bytes = 0;
      this.generation = generation;
    }
    const hit = this.terms.get(term);
    if (hit) {
      this.terms.delete(term);
      this.terms.set(term, hit);
      return hit.blocks;
    }
    // The merged blocks and those of the batches since the last merge (`postings-merge.ts`), in pk order.
    const rows = conn
      .stmt(
        `SELECT first_pk, last_pk, count, max_tf, min_length, data FROM keyword_blocks WHERE term = @term
         UNION ALL SELECT first_pk, last_pk, count, max_tf, min_length, data FROM keyword_recent WHERE term = @term
         ORDER BY first_pk`,
      )
      .raw(true)
      .all({ term }) as [number, number, number, number, number, Uint8Array][];
    const blocks = toBlocks(rows);
    let bytes = 64 + rows.length * 40;
    for (const data of blocks.data) bytes += data.length;
    if (bytes <= this.capacity) {
      this.terms.set(term, { blocks, bytes });
      this.bytes += bytes;
      for (const [oldest, entry] of this.terms) {
        if (this.bytes <= this.capacity) break;
        this.terms.delete(oldest);
        this.bytes -= entry.bytes;
      }
    }
    return blocks;
  }
}

function toBlocks(rows: readonly [number, number, number, number, number, Uint8Array][]): StoredBlocks {
  const n = rows.length;
  const blocks: StoredBlocks = {
    firstPk: new Int32Array(n),
    lastPk: new Int32Array(n),
    count: new Int32Array(n),
    maxTf: new Int32Array(n),
    minLength: new Int32Array(n),
    data: new Array<Uint8Array>(n),
  };
  rows.forEach(([firstPk, lastPk, count, maxTf, minLength, data], i) => {
    blocks.firstPk[i] = firstPk;
    blocks.lastPk[i] = lastPk;
    blocks.count[i] = count;
    blocks.maxTf[i] = maxTf;
    blocks.minLength[i] = minLength;
    blocks.data[i] = data;
  });
  return blocks;
}

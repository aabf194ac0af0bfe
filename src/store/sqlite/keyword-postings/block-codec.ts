/**
 * A block of one term's postings: at most BLOCK_SIZE chunks in ascending chunk pk, each with its document pk (for the
 * principal's filter), the term's frequency in the chunk and the chunk's length in tokens. Stored as LEB128 varints:
 * per posting the pk's gap from the previous (the first's from the block's `first_pk`, so 0), tf, length, and the
 * document pk's gap from the previous posting's (the first's whole), zigzag-signed. Pks ascend in a term's list, so
 * their gaps are ≥ 0; document pks follow them in practice (both are assigned in insertion order) but need not.
 */
export const BLOCK_SIZE = 128;

/** Postings held column-wise; `size` of each array is used. */
export interface PostingColumns {
  pk: Int32Array | number[];
  doc: Int32Array | number[];
  tf: Int32Array | number[];
  length: Int32Array | number[];
}

/** The row of `keyword_blocks` a block is stored as (its term aside). */
export interface EncodedBlock {
  firstPk: number;
  lastPk: number;
  count: number;
  /** The highest tf and the lowest length in the block: with the store's average length, a bound on its BM25 part. */
  maxTf: number;
  minLength: number;
  data: Uint8Array;
}

/** Encodes postings `from` up to `to` (exclusive, at most BLOCK_SIZE of them). */
export function encodeBlock(columns: PostingColumns, from: number, to: number): EncodedBlock {
  const bytes = new Uint8Array((to - from) * 4 * 5);
  let at = 0;
  const put = (value: number) => {
    let v = value;
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    bytes[at++] = v;
  };
  const firstPk = columns.pk[from] as number;
  let previousPk = firstPk;
  let previousDoc = 0;
  let maxTf = 0;
  let minLength = Number.MAX_SAFE_INTEGER;
  for (let i = from; i < to; i++) {
    const pk = columns.pk[i] as number;
    const doc = columns.doc[i] as number;
    const tf = columns.tf[i] as number;
    const length = columns.length[i] as number;
    put(pk - previousPk);
    put(tf);
    put(length);
    const gap = doc - previousDoc;
    put(gap >= 0 ? gap * 2 : -gap * 2 - 1);
    previousPk = pk;
    previousDoc = doc;
    if (tf > maxTf) maxTf = tf;
    if (length < minLength) minLength = length;
  }
  return { firstPk, lastPk: previousPk, count: to - from, maxTf, minLength, data: bytes.slice(0, at) };
}

/** Postings of one decoded block, in reusable arrays of BLOCK_SIZE. */
export class DecodedBlock implements PostingColumns {
  readonly pk = new Int32Array(BLOCK_SIZE);
  readonly doc = new Int32Array(BLOCK_SIZE);
  readonly tf = new Int32Array(BLOCK_SIZE);
  readonly length = new Int32Array(BLOCK_SIZE);
  size = 0;

  /** Decodes `count` postings of a block starting at `firstPk`. */
  decode(data: Uint8Array, firstPk: number, count: number): void {
    let at = 0;
    let pk = firstPk;
    let doc = 0;
    // Four varints a posting, read inline (most are one byte).
    for (let i = 0; i < count; i++) {
      let byte = data[at++] as number;
      let value = byte & 0x7f;
      for (let scale = 128; byte & 0x80; scale *= 128) {
        byte = data[at++] as number;
        value += (byte & 0x7f) * scale;
      }
      pk += value;
      this.pk[i] = pk;
      byte = data[at++] as number;
      value = byte & 0x7f;
      for (let scale = 128; byte & 0x80; scale *= 128) {
        byte = data[at++] as number;
        value += (byte & 0x7f) * scale;
      }
      this.tf[i] = value;
      byte = data[at++] as number;
      value = byte & 0x7f;
      for (let scale = 128; byte & 0x80; scale *= 128) {
        byte = data[at++] as number;
        value += (byte & 0x7f) * scale;
      }
      this.length[i] = value;
      byte = data[at++] as number;
      value = byte & 0x7f;
      for (let scale = 128; byte & 0x80; scale *= 128) {
        byte = data[at++] as number;
        value += (byte & 0x7f) * scale;
      }
      doc += value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      this.doc[i] = doc;
    }
    this.size = count;
  }
}

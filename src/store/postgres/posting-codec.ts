/**
 * The byte form of a block of keyword postings (keyword_blocks.postings, migration 26). A block holds up to
 * `BLOCK_POSTINGS` postings of one term, each three unsigned LEB128 varints: the row's pk as a zigzag delta from the
 * previous posting's (the first from the block's `first_pk`), the term frequency and the row's keyword length. Deltas
 * are usually one or two bytes, so a posting takes about four bytes where a row of its own took about a hundred.
 *
 * A writer appends to a block's bytes without reading them (it knows the block's `last_pk`), so postings are in the
 * order they were written: by pk, except where two transactions interleaved their pks. Nothing relies on the order.
 */

/** Postings a block takes before a new one is started: a full block of wide postings (11 bytes) stays under 2 KB, inline in its row. */
export const BLOCK_POSTINGS = 128;

export interface Posting {
  pk: number;
  tf: number;
  len: number;
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Appends `value` (a non-negative integer up to 2^53) as an unsigned LEB128 varint. */
function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** The bytes of `postings`, the first as a delta from `previousPk` (the block's `first_pk`, or its `last_pk` when appending). */
export function encodePostings(postings: readonly Posting[], previousPk: number): Buffer {
  const out: number[] = [];
  let previous = previousPk;
  for (const { pk, tf, len } of postings) {
    pushVarint(out, zigzag(pk - previous));
    pushVarint(out, tf);
    pushVarint(out, len);
    previous = pk;
  }
  return Buffer.from(out);
}

/**
 * Calls `visit(pk, tf, len)` for each posting of a block, in stored order. The loop is the ranking's innermost one,
 * so it reads the bytes directly rather than building posting objects.
 */
export function forEachPosting(
  bytes: Uint8Array,
  firstPk: number,
  visit: (pk: number, tf: number, len: number) => void,
): void {
  let at = 0;
  let pk = firstPk;
  const end = bytes.length;
  const next = (): number => {
    let byte = bytes[at++] as number;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    do {
      byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80);
    return value;
  };
  while (at < end) {
    pk += unzigzag(next());
    const tf = next();
    visit(pk, tf, next());
  }
}

export function decodePostings(bytes: Uint8Array, firstPk: number): Posting[] {
  const out: Posting[] = [];
  forEachPosting(bytes, firstPk, (pk, tf, len) => out.push({ pk, tf, len }));
  return out;
}

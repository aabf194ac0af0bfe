import type { PoolClient, QueryConfig } from 'pg';
import { createInt8ScanKernel, type Int8ScanKernel } from './int8-scan-kernel.ts';
import { CODE_HEADER, decodeVector, QUERY_LEVELS, quantize, ROW_LEVELS } from './vector-code-bytes.ts';

/** Pks read per statement when the codes are loaded whole (a range of pks, so at most this many rows). */
const LOAD_RANGE = 16_384;
/**
 * A statement whose results come in PostgreSQL's binary format (pg reads `binary`; its types omit it). Without bind
 * parameters: pg 8.23 parses a parameterised statement's binary results as text, so the few integers these statements
 * take are written into them (`integer` checks each is one).
 */
const binary = (text: string): QueryConfig => ({ text, binary: true }) as QueryConfig;
const integer = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${n}`);
  return String(n);
};
/** A bigint sent in binary (`int8send`), as a number (pks stay far below 2⁵³). */
const int8 = (bytes: Buffer): number => Number(bytes.readBigInt64BE(0));
/** Bytes of the kernel's memory before the codes: the query (int16) comes first. */
const ALIGN = 64;

/** Where the database's vector log stands (migration 28): read with every search, in its first statement. */
export interface VectorLogState {
  generation: string;
  version: number;
  keptFrom: number;
}

/** What the first statement of a search returns about the log, as SQL: `generation`, `version`, `kept_from`. */
export const VECTOR_LOG_STATE_SQL = 'SELECT generation, version, kept_from FROM vector_log_state';

export const readLogState = (row: { generation: string; version: string | number; kept_from: string | number }) => ({
  generation: row.generation,
  version: Number(row.version),
  keptFrom: Number(row.kept_from),
});

/**
 * Int8 codes of a store's vectors, held in this process and kept current from the database's vector log: the
 * vector channel scans them all (a few ms at 100k × 512 with the SIMD kernel) to pick candidates, which the database
 * then ranks by their exact float32 distance. A row's code is its vector scaled to unit length, one scale per row,
 * as the SQLite store's int8 scan does, so both stores pick the same candidates.
 *
 * The codes follow the log: a search reads the log's state in its first statement, and when the version moved the
 * rows logged since are read again (in one snapshot with the state); a new generation (the vector table made anew)
 * or a version older than the log keeps loads everything again. Rows are addressed by slot; a deleted row's slot is
 * reused. Loads and refreshes are one at a time; searches that arrive meanwhile wait for them.
 */
export class VectorCodes {
  private readonly kernel: Int8ScanKernel;
  private generation: string | undefined;
  private version = 0;
  private dimension = 0;
  private stride = 0;
  private capacity = 0;
  /** Slots in use or freed (the scan covers them all; a freed slot has scale 0 and is never picked). */
  private slots = 0;
  private pks = new Float64Array(0);
  /** Each slot's document, as an index into the document lists below. */
  private docOf = new Int32Array(0);
  private readonly docIndex = new Map<number, number>();
  private readonly docAcl: (readonly string[])[] = [];
  private readonly docRows: number[] = [];
  private readonly docPkOf: number[] = [];
  private readonly freeDocs: number[] = [];
  private scales = new Float32Array(0);
  private live = new Uint8Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private syncing: Promise<void> | undefined;

  constructor(kernel: Int8ScanKernel = createInt8ScanKernel()) {
    this.kernel = kernel;
  }

  /** Rows held (live). */
  get size(): number {
    return this.slotOf.size;
  }

  /** Brings the codes up to `state` (or later) for vectors of `dimension`. */
  async sync(c: PoolClient, state: VectorLogState, dimension: number): Promise<void> {
    while (!this.current(state, dimension)) {
      if (this.syncing) {
        await this.syncing;
        continue;
      }
      this.syncing = this.refresh(c, dimension).finally(() => {
        this.syncing = undefined;
      });
      await this.syncing;
    }
  }

  private current(state: VectorLogState, dimension: number): boolean {
    return this.generation === state.generation && this.version >= state.version && this.dimension === dimension;
  }

  /** One snapshot: the log's state, then either the rows logged since this process's version or every row. */
  private async refresh(c: PoolClient, dimension: number): Promise<void> {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const row = (await c.query(VECTOR_LOG_STATE_SQL)).rows[0];
      if (!row) throw new Error('The vector log has no state row (migration 28).');
      const state = readLogState(row);
      const whole =
        state.generation !== this.generation || this.dimension !== dimension || this.version + 1 < state.keptFrom;
      if (whole) {
        this.reset(dimension);
        await this.loadAll(c);
      } else if (state.version > this.version) {
        const changed = await c.query<{
          pk: Buffer;
          doc: Buffer | null;
          acl: string[] | null;
          code: Buffer | null;
          e: Buffer | null;
        }>(
          binary(
            `SELECT int8send(l.chunk_pk) AS pk, int8send(c.doc_pk) AS doc, d.acl, v.code,
                   CASE WHEN v.code IS NULL THEN vector_send(v.embedding) END AS e
                 FROM (SELECT DISTINCT chunk_pk FROM vector_log WHERE version > ${integer(this.version)}) l
                 LEFT JOIN chunk_vectors v ON v.chunk_pk = l.chunk_pk LEFT JOIN chunks c ON c.pk = v.chunk_pk
                 LEFT JOIN documents d ON d.pk = c.doc_pk`,
          ),
        );
        for (const r of changed.rows) {
          if ((r.code === null && r.e === null) || r.doc === null || r.acl === null) this.remove(int8(r.pk));
          else this.put(int8(r.pk), int8(r.doc), r.acl, r.code, r.e);
        }
      }
      this.generation = state.generation;
      this.version = state.version;
      await c.query('COMMIT');
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      // Half-applied changes are not trusted: the next search loads everything again.
      this.generation = undefined;
      throw error;
    }
  }

  /**
   * Every row, by ranges of pks, inside the caller's snapshot: the documents' ACLs first (one row a document, not one a
   * chunk), then each row's pk, document and stored code (migration 29), in binary (no hex to decode, no floats to
   * quantize). A row written without a code (by a process of an older version) is read as its vector and quantized
   * here, which gives the same bytes.
   */
  private async loadAll(c: PoolClient): Promise<void> {
    const acls = new Map<number, string[]>();
    const documents = await c.query<{ pk: Buffer; acl: string[] }>(
      binary('SELECT int8send(pk) AS pk, acl FROM documents'),
    );
    for (const r of documents.rows) acls.set(int8(r.pk), r.acl);
    const bounds = (
      await c.query(binary('SELECT int8send(min(chunk_pk)) AS lo, int8send(max(chunk_pk)) AS hi FROM chunk_vectors'))
    ).rows[0] as { lo: Buffer | null; hi: Buffer | null };
    if (bounds.lo === null || bounds.hi === null) return;
    const last = int8(bounds.hi);
    for (let from = int8(bounds.lo); from <= last; from += LOAD_RANGE) {
      // A range of pks, unordered: PostgreSQL reads it as a bitmap heap scan (4 µs a row at 100k) rather than walking
      // the index row by row (11 µs) as an ordered, limited page does.
      // Each row as one value: its pk and its document (int8), then its stored code, or its vector (`vector_send`)
      // where it has none. (One value a range, with string_agg, costs more: pg copies a long message as it grows.)
      const batch = await c.query<{ r: Buffer }>(
        binary(
          `SELECT int8send(v.chunk_pk) || int8send(c.doc_pk) || COALESCE(v.code, vector_send(v.embedding)) AS r
           FROM chunk_vectors v JOIN chunks c ON c.pk = v.chunk_pk
           WHERE v.chunk_pk >= ${integer(from)} AND v.chunk_pk < ${integer(from + LOAD_RANGE)}
             AND c.pk >= ${integer(from)} AND c.pk < ${integer(from + LOAD_RANGE)}`,
        ),
      );
      const code = this.dimension + CODE_HEADER;
      for (const { r } of batch.rows) {
        const pk = Number(r.readBigInt64BE(0));
        const doc = Number(r.readBigInt64BE(8));
        const value = r.subarray(16);
        const acl = acls.get(doc);
        if (acl === undefined) throw new Error(`Chunk row ${pk} names document ${doc}, which the snapshot lacks.`);
        if (value.length === code) this.put(pk, doc, acl, value, null);
        else this.put(pk, doc, acl, null, value);
      }
    }
  }

  private reset(dimension: number): void {
    this.dimension = dimension;
    this.floats = new Float32Array(dimension);
    this.stride = Math.ceil(dimension / 8) * 8;
    this.slots = 0;
    this.slotOf.clear();
    this.free.length = 0;
    this.docIndex.clear();
    this.docAcl.length = 0;
    this.docRows.length = 0;
    this.docPkOf.length = 0;
    this.freeDocs.length = 0;
    this.grow(Math.max(1024, this.capacity));
  }

  /** Kernel memory: [query int16][out int32 × capacity][codes int8 × capacity × stride]. */
  private get outOffset(): number {
    return Math.ceil((this.stride * 2) / ALIGN) * ALIGN;
  }
  private codesOffsetFor(capacity: number): number {
    return this.outOffset + Math.ceil((capacity * 4) / ALIGN) * ALIGN;
  }

  private grow(capacity: number): void {
    const oldCodes = this.codesOffsetFor(this.capacity);
    const codes = this.codesOffsetFor(capacity);
    this.kernel.reserve(codes + capacity * this.stride);
    const bytes = new Uint8Array(this.kernel.buffer());
    if (this.slots > 0 && codes !== oldCodes) bytes.copyWithin(codes, oldCodes, oldCodes + this.slots * this.stride);
    const widen = <T extends Float64Array | Float32Array | Int32Array | Uint8Array>(
      old: T,
      make: (n: number) => T,
    ): T => {
      const next = make(capacity);
      next.set(old.subarray(0, Math.min(old.length, this.slots)));
      return next;
    };
    this.pks = widen(this.pks, (n) => new Float64Array(n));
    this.docOf = widen(this.docOf, (n) => new Int32Array(n));
    this.scales = widen(this.scales, (n) => new Float32Array(n));
    this.live = widen(this.live, (n) => new Uint8Array(n));
    this.capacity = capacity;
  }

  private floats = new Float32Array(0);
  private view = new Uint8Array(0);
  /** The kernel's memory as bytes (a new view when the memory grew). */
  private memory(): Uint8Array {
    const buffer = this.kernel.buffer();
    if (this.view.buffer !== buffer) this.view = new Uint8Array(buffer);
    return this.view;
  }
  /** Holds row `pk`'s code: the stored one (`code`), or one made from its vector (`encoded`, `vector_send`'s bytes). */
  private put(pk: number, docPk: number, acl: readonly string[], code: Buffer | null, encoded: Buffer | null): void {
    let slot = this.slotOf.get(pk);
    if (slot === undefined) {
      slot = this.free.pop();
      if (slot === undefined) {
        if (this.slots === this.capacity) this.grow(this.capacity * 2);
        slot = this.slots++;
      }
      this.slotOf.set(pk, slot);
    } else {
      this.release(this.docOf[slot] as number);
    }
    const at = this.codesOffsetFor(this.capacity) + slot * this.stride;
    if (code !== null) {
      if (code.length !== CODE_HEADER + this.dimension)
        throw new Error(`A stored code has ${code.length - CODE_HEADER} dimensions, not ${this.dimension}.`);
      this.memory().set(code.subarray(CODE_HEADER), at);
      this.scales[slot] = code.readFloatBE(0);
    } else if (encoded !== null) {
      decodeVector(encoded, this.dimension, this.floats);
      const codes = new Int8Array(this.kernel.buffer(), at, this.dimension);
      this.scales[slot] = quantize(this.floats, ROW_LEVELS, codes);
    } else {
      throw new Error(`Row ${pk} has neither a code nor a vector.`);
    }
    this.pks[slot] = pk;
    this.docOf[slot] = this.hold(docPk, acl);
    this.live[slot] = 1;
  }

  /** The document's index, its ACL as read now, one more row counted on it. */
  private hold(docPk: number, acl: readonly string[]): number {
    let index = this.docIndex.get(docPk);
    if (index === undefined) {
      index = this.freeDocs.pop() ?? this.docAcl.length;
      this.docIndex.set(docPk, index);
      this.docPkOf[index] = docPk;
      this.docRows[index] = 0;
    }
    this.docAcl[index] = acl;
    this.docRows[index] = (this.docRows[index] as number) + 1;
    return index;
  }

  private release(index: number): void {
    const rows = (this.docRows[index] as number) - 1;
    this.docRows[index] = rows;
    if (rows > 0) return;
    this.docIndex.delete(this.docPkOf[index] as number);
    this.docAcl[index] = [];
    this.freeDocs.push(index);
  }

  private remove(pk: number): void {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    this.slotOf.delete(pk);
    this.release(this.docOf[slot] as number);
    this.live[slot] = 0;
    this.scales[slot] = 0;
    this.free.push(slot);
  }

  /**
   * Which documents `keys` may read, by index: an empty ACL is public, otherwise one key in common (the filter the
   * database applies, acl-sql.ts). Undefined keys (an admin) read everything.
   */
  private visibleDocs(keys: readonly string[] | undefined): Uint8Array | undefined {
    if (keys === undefined) return undefined;
    const wanted = new Set(keys);
    const visible = new Uint8Array(this.docAcl.length);
    for (let i = 0; i < this.docAcl.length; i++) {
      const acl = this.docAcl[i] as readonly string[];
      if ((this.docRows[i] as number) > 0 && (acl.length === 0 || acl.some((key) => wanted.has(key)))) visible[i] = 1;
    }
    return visible;
  }

  /**
   * The pks of the best `depth` rows by the int8 score (ties by pk), among the rows of the documents `keys` may read
   * (every row for undefined keys), best first. When at most `allBelow` rows pass, all of them are returned (the
   * caller ranks them exactly). The caller's statement applies the principal's filter again.
   */
  candidates(query: Float32Array, depth: number, allBelow: number, keys: readonly string[] | undefined): number[] {
    if (query.length !== this.dimension || this.slots === 0 || depth <= 0) return [];
    const visible = this.visibleDocs(keys);
    const passing: number[] = [];
    for (let slot = 0; slot < this.slots && passing.length <= allBelow; slot++) {
      if (this.live[slot] === 1 && (visible === undefined || visible[this.docOf[slot] as number] === 1))
        passing.push(slot);
    }
    if (passing.length <= allBelow) return passing.map((slot) => this.pks[slot] as number);
    const q = new Int16Array(this.kernel.buffer(), 0, this.stride);
    quantize(query, QUERY_LEVELS, q.subarray(0, this.dimension));
    const out = this.outOffset;
    this.kernel.dots(0, this.codesOffsetFor(this.capacity), this.slots, this.stride, out);
    const dots = new Int32Array(this.kernel.buffer(), out, this.slots);
    return this.best(dots, depth, visible);
  }

  /** A bounded heap over (score, pk): the worst kept row at its root. */
  private best(dots: Int32Array, depth: number, visible: Uint8Array | undefined): number[] {
    const heapScore = new Float64Array(depth);
    const heapPk = new Float64Array(depth);
    let n = 0;
    // a is worse than b: a lower score, or the same score and a higher pk.
    const worse = (sa: number, pa: number, sb: number, pb: number) => sa < sb || (sa === sb && pa > pb);
    const siftDown = (from: number) => {
      let i = from;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && worse(heapScore[l] as number, heapPk[l] as number, heapScore[m] as number, heapPk[m] as number))
          m = l;
        if (r < n && worse(heapScore[r] as number, heapPk[r] as number, heapScore[m] as number, heapPk[m] as number))
          m = r;
        if (m === i) return;
        [heapScore[i], heapScore[m]] = [heapScore[m] as number, heapScore[i] as number];
        [heapPk[i], heapPk[m]] = [heapPk[m] as number, heapPk[i] as number];
        i = m;
      }
    };
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.live[slot] !== 1) continue;
      const score = (dots[slot] as number) * (this.scales[slot] as number);
      const pk = this.pks[slot] as number;
      if (n === depth && !worse(heapScore[0] as number, heapPk[0] as number, score, pk)) continue;
      if (visible !== undefined && visible[this.docOf[slot] as number] !== 1) continue;
      if (n < depth) {
        let i = n++;
        heapScore[i] = score;
        heapPk[i] = pk;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (
            !worse(heapScore[i] as number, heapPk[i] as number, heapScore[parent] as number, heapPk[parent] as number)
          )
            break;
          [heapScore[i], heapScore[parent]] = [heapScore[parent] as number, heapScore[i] as number];
          [heapPk[i], heapPk[parent]] = [heapPk[parent] as number, heapPk[i] as number];
          i = parent;
        }
      } else {
        heapScore[0] = score;
        heapPk[0] = pk;
        siftDown(0);
      }
    }
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort(
      (a, b) => (heapScore[b] as number) - (heapScore[a] as number) || (heapPk[a] as number) - (heapPk[b] as number),
    );
    return order.map((i) => heapPk[i] as number);
  }
}

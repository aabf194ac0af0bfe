import type { Block, Chapter, Chunk, RowRegion } from '../domain/index.ts';
import { layoutBlocks, type PlacedBlock } from './sections.ts';

/** Sizes in characters; the defaults come from config (`chunk.size` 1200, `chunk.overlap` 150). */
export interface ChunkOptions {
  size: number;
  overlap: number;
}

export interface ChunkedDocument {
  /** The document's full text: blocks joined by a blank line. Chunk and chapter offsets index it. */
  text: string;
  chunks: Chunk[];
  chapters: Chapter[];
}

/**
 * How good a place is to end a chunk (higher is better); NO_BREAK where a chunk must not end
 * (inside a table row, inside a word or identifier, between surrogate halves).
 */
const NO_BREAK = -1;
const AFTER_HEADING = 0;
const CJK_CHAR = 1;
const CJK_CLAUSE = 2;
const WHITESPACE = 3;
const SENTENCE = 4;
const BLOCK = 5;
const BEFORE_HEADING = 6;
const CLASSES_BEST_FIRST = [BEFORE_HEADING, BLOCK, SENTENCE, WHITESPACE, CJK_CLAUSE, CJK_CHAR, AFTER_HEADING];

/** A chunk should be at least this full before a lesser break is taken over a better one. */
const MIN_FILL = 0.5;

const CJK =
  /[\u2E80-\u2FFF\u3001-\u303F\u3040-\u30FF\u3100-\u31FF\u3200-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/;
const CJK_SENTENCE_END = new Set(['。', '！', '？', '；', '!', '?', ';']);
const CJK_CLAUSE_END = new Set(['，', '、', '：', '．']);
const CLOSERS = new Set([')', ']', '"', "'", '”', '’', '»', '」', '』', '）']);
const SENTENCE_END = new Set(['.', '!', '?', '。', '！', '？']);

/** `/\s/` on one character, without the regular expression for ASCII (the common case: chunking tests every position). */
const isSpace = (ch: string | undefined): boolean => {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return code < 0x80 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : /\s/.test(ch);
};
/** `CJK.test` on one character; every CJK range starts at U+2E80 or later. */
const isCjk = (ch: string): boolean => ch.charCodeAt(0) >= 0x2e80 && CJK.test(ch);
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Break analysis of one document's text. Positions are chunk *ends* (exclusive). */
class BreakFinder {
  /** 1 where the character belongs to a `row` block. */
  private readonly inRow: Uint8Array;
  /** Block end → its break class. */
  private readonly blockEnds = new Map<number, number>();

  constructor(
    private readonly text: string,
    blocks: readonly PlacedBlock[],
  ) {
    this.inRow = new Uint8Array(text.length + 1);
    blocks.forEach((placed, index) => {
      if (placed.block.kind === 'row') this.inRow.fill(1, placed.start, placed.end);
      const next = blocks[index + 1];
      this.blockEnds.set(
        placed.end,
        placed.block.kind === 'heading' ? AFTER_HEADING : next?.block.kind === 'heading' ? BEFORE_HEADING : BLOCK,
      );
    });
  }

  classAt(p: number): number {
    const { text } = this;
    if (p <= 0 || p >= text.length) return NO_BREAK;
    const blockEnd = this.blockEnds.get(p);
    if (blockEnd !== undefined) return blockEnd;
    if (this.inRow[p - 1] === 1 && this.inRow[p] === 1) return NO_BREAK;
    const before = text[p - 1] ?? '';
    const after = text[p] ?? '';
    if (isSpace(before)) return NO_BREAK; // chunks end on their last visible character
    if (isSpace(after)) {
      let q = p;
      while (q < text.length && isSpace(text[q])) q += 1;
      if (text.slice(p, q).includes('\n')) return SENTENCE;
      return this.endsSentence(p, text[q]) ? SENTENCE : WHITESPACE;
    }
    if (isHighSurrogate(before.charCodeAt(0))) return NO_BREAK;
    if (CJK_SENTENCE_END.has(before) && (isCjk(after) || before.charCodeAt(0) > 0xff) && !CLOSERS.has(after))
      return SENTENCE;
    if (CJK_CLAUSE_END.has(before) && !CLOSERS.has(after)) return CJK_CLAUSE;
    // Inside a run without spaces only a CJK character may be cut off from its neighbour; an ASCII token never is.
    if ((isCjk(before) || isCjk(after)) && !CLOSERS.has(after)) return CJK_CHAR;
    return NO_BREAK;
  }

  /** `p` follows `.`/`!`/`?` (maybe closed by a bracket or quote) and the next word starts like a sentence. */
  private endsSentence(p: number, next: string | undefined): boolean {
    let k = p - 1;
    while (k > 0 && CLOSERS.has(this.text[k] ?? '')) k -= 1;
    if (!SENTENCE_END.has(this.text[k] ?? '')) return false;
    return next === undefined || !/[\p{Ll}]/u.test(next);
  }

  rowAt(p: number): boolean {
    return this.inRow[p] === 1;
  }

  skipSpace(p: number, end: number): number {
    while (p < end && isSpace(this.text[p])) p += 1;
    return p;
  }

  /**
   * Where the chunk starting at `start` should end, within the chapter ending at `end`, and after `minEnd`.
   * The best break class past half the size wins; then the latest break of any class; then the first break
   * past the size (an unsplittable row or token makes an oversized chunk rather than being cut).
   */
  chooseEnd(start: number, end: number, size: number, minEnd: number): { at: number; kind: number } {
    if (end - start <= size) return { at: end, kind: BLOCK };
    const limit = start + size;
    const latest = new Map<number, number>();
    let latestAny: { at: number; kind: number } | undefined;
    const fill = start + Math.floor(size * MIN_FILL);
    // Below `fill` only the latest break of any class can still be chosen: once there is one, stop looking.
    for (let p = limit; p > minEnd && p > start && (p >= fill || !latestAny); p -= 1) {
      const kind = this.classAt(p);
      if (kind === NO_BREAK) continue;
      latestAny ??= { at: p, kind };
      if (!latest.has(kind)) latest.set(kind, p);
    }
    for (const kind of CLASSES_BEST_FIRST) {
      const at = latest.get(kind);
      if (at !== undefined && at >= fill && kind !== AFTER_HEADING) return { at, kind };
    }
    if (latestAny) return latestAny;
    for (let p = limit + 1; p < end; p += 1) {
      const kind = this.classAt(p);
      if (kind !== NO_BREAK) return { at: p, kind };
    }
    return { at: end, kind: BLOCK };
  }

  /** The earliest sentence start in [end - overlap, end) after `start`, outside table rows: where the next chunk begins. */
  overlapStart(start: number, end: number, overlap: number): number | undefined {
    for (let q = Math.max(start + 1, end - overlap - 1); q < end; q += 1) {
      const kind = this.classAt(q);
      if (kind !== SENTENCE && kind !== BLOCK) continue;
      const s = this.skipSpace(q, end);
      if (s >= end - overlap && s > start && s < end && !this.rowAt(s)) return s;
    }
    return undefined;
  }
}

/** The block containing (or, in a separator, preceding) position `p`. */
function blockAt(blocks: readonly PlacedBlock[], p: number): PlacedBlock | undefined {
  let lo = 0;
  let hi = blocks.length - 1;
  let found: PlacedBlock | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = blocks[mid];
    if (!candidate) break;
    if (candidate.start <= p) {
      found = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/**
 * Chapters: one per top-level heading (the smallest heading level in the document), spanning to the next.
 * Text before the first top-level heading, or a whole document without headings, is a chapter titled ""
 * with an empty heading path, so chapters always cover the full text. An empty document has none.
 */
function chapterSpans(blocks: readonly PlacedBlock[], topLevel: number | undefined): { from: number; to: number }[] {
  const spans: { from: number; to: number }[] = [];
  let from = 0;
  blocks.forEach((placed, index) => {
    if (index > from && placed.block.kind === 'heading' && placed.block.level === topLevel) {
      spans.push({ from, to: index });
      from = index;
    }
  });
  if (blocks.length > 0) spans.push({ from, to: blocks.length });
  return spans;
}

/**
 * Splits a document's blocks into chunks that respect its structure: never across a top-level chapter, best at a
 * block (ideally before a heading), then a sentence, then whitespace, then (CJK) a character; never inside a `row`
 * block or an ASCII token such as `CT-2024-0193`, `/v2/orders/{id}` or `1,250.50`. Whole trailing sentences up to
 * `overlap` characters are repeated at the start of the next chunk, except at a heading.
 */
/** The table rows within [start, end) whose cells have places on their page (rows are never split across chunks). */
function rowRegions(blocks: readonly PlacedBlock[], start: number, end: number): RowRegion[] {
  const regions: RowRegion[] = [];
  // Binary search for the first block ending after `start`: a long table's rows cost log(blocks) per chunk.
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blocks[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < blocks.length && blocks[index]!.start < end; index += 1) {
    const { block } = blocks[index]!;
    if (block.kind === 'row' && block.cells && block.page !== undefined)
      regions.push({ page: block.page, text: block.text, cells: block.cells });
  }
  return regions;
}

export function chunkDocument(docId: string, blocks: Block[], options: ChunkOptions): ChunkedDocument {
  const size = Math.max(1, Math.floor(options.size));
  const overlap = Math.max(0, Math.min(Math.floor(options.overlap), Math.floor(size / 2)));
  const layout = layoutBlocks(blocks);
  const { text } = layout;
  const finder = new BreakFinder(text, layout.blocks);
  const chunks: Chunk[] = [];
  const chapters: Chapter[] = [];

  for (const span of chapterSpans(layout.blocks, layout.topLevel)) {
    const first = layout.blocks[span.from];
    const last = layout.blocks[span.to - 1];
    if (!first || !last) continue;
    const isHeadingChapter = first.block.kind === 'heading' && first.block.level === layout.topLevel;
    chapters.push({
      ordinal: chapters.length,
      title: isHeadingChapter ? first.block.text : '',
      headingPath: isHeadingChapter ? [first.block.text] : [],
      startOffset: first.start,
      endOffset: last.end,
      ...(first.block.page === undefined ? {} : { page: first.block.page }),
    });

    let start = first.start;
    let previousEnd = start;
    while (start < last.end) {
      const { at, kind } = finder.chooseEnd(start, last.end, size, previousEnd);
      const placed = blockAt(layout.blocks, start);
      const page = placed?.block.page;
      const regions = rowRegions(layout.blocks, start, at);
      chunks.push({
        id: `${docId}#${chunks.length}`,
        docId,
        ordinal: chunks.length,
        text: text.slice(start, at),
        headingPath: placed ? [...placed.headingPath] : [],
        ...(page === undefined ? {} : { page }),
        startOffset: start,
        endOffset: at,
        ...(regions.length > 0 ? { regions } : {}),
      });
      if (at >= last.end) break;
      previousEnd = at;
      const carried = kind === BEFORE_HEADING || overlap === 0 ? undefined : finder.overlapStart(start, at, overlap);
      start = carried ?? finder.skipSpace(at, last.end);
    }
  }
  return { text, chunks, chapters };
}

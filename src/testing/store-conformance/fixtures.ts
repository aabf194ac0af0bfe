import { expect } from 'vitest';
import type { ChannelHit, Chapter, Chunk, Principal, TableData } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import type { DocumentWrite, EmbedderInfo } from '../../store/store.ts';

/** What the conformance specs share: principals, document builders, tables, vectors, and expectations. */

export const EMBEDDER: EmbedderInfo = { id: 'conformance-embedder', dimension: 8 };

export const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
export const ALICE: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
export const BOB: Principal = { id: 'bob', groups: [], roles: ['member'] };
export const CAROL: Principal = { id: 'carol', groups: ['hr'], roles: ['member'] };
/** A user whose name equals a group name, and a group named like a user: entries must not cross kinds. */
export const USER_NAMED_LEGAL: Principal = { id: 'legal', groups: ['bob'], roles: ['member'] };

/** Who sees which of the four ACL test documents (public.md, legal.md for group legal, bob.md for bob, secret.md for nobody). */
export const VISIBILITY_CASES: [string, Principal, string[]][] = [
  ['admin sees everything', ADMIN, ['bob.md', 'legal.md', 'public.md', 'secret.md']],
  ['group match', ALICE, ['legal.md', 'public.md']],
  ['user match', BOB, ['bob.md', 'public.md']],
  ['no match sees public only', CAROL, ['public.md']],
  ['user and group entries do not cross', USER_NAMED_LEGAL, ['public.md']],
];

export function unitVector(next: () => number, dimension = EMBEDDER.dimension): Float32Array {
  const vector = new Float32Array(dimension);
  let norm = 0;
  for (let d = 0; d < dimension; d++) {
    const value = next() * 2 - 1;
    vector[d] = value;
    norm += value * value;
  }
  for (let d = 0; d < dimension; d++) vector[d] = (vector[d] as number) / Math.sqrt(norm);
  return vector;
}

export interface ChunkSpec {
  text: string;
  /** Analysed keyword text; defaults to the lowercased words of `text`. */
  keywords?: string;
  vector: Float32Array;
}

export interface DocSpec {
  docId: string;
  chunks: ChunkSpec[];
  acl?: string[];
  contentHash?: string;
  tables?: TableData[];
  chapters?: Chapter[];
  embedder?: EmbedderInfo;
  tags?: string[];
  pageCount?: number;
}

export function documentWrite(spec: DocSpec): DocumentWrite {
  let offset = 0;
  const chunks: Chunk[] = spec.chunks.map((chunk, ordinal) => {
    const startOffset = offset;
    offset += chunk.text.length + 1;
    return {
      id: `${spec.docId}#${ordinal}`,
      docId: spec.docId,
      ordinal,
      text: chunk.text,
      headingPath: ['Title', `Section ${ordinal}`],
      ...(ordinal % 2 === 1 ? { page: ordinal } : {}),
      startOffset,
      endOffset: startOffset + chunk.text.length,
    };
  });
  return {
    document: {
      docId: spec.docId,
      source: `/corpus/${spec.docId}`,
      title: `Title of ${spec.docId}`,
      type: 'markdown',
      contentHash: spec.contentHash ?? `hash-${spec.docId}`,
      bytes: offset,
      acl: spec.acl ?? [],
      tags: spec.tags ?? [],
      ...(spec.pageCount === undefined ? {} : { pageCount: spec.pageCount }),
    },
    chunks,
    keywordText: spec.chunks.map(
      (chunk) =>
        chunk.keywords ??
        chunk.text
          .toLowerCase()
          .replace(/[^\p{L}\p{N}_]+/gu, ' ')
          .trim(),
    ),
    vectors: spec.chunks.map((chunk) => chunk.vector),
    embedder: spec.embedder ?? EMBEDDER,
    chapters: spec.chapters ?? [
      { ordinal: 0, title: `Chapter of ${spec.docId}`, headingPath: ['Title'], startOffset: 0, endOffset: offset },
    ],
    tables: spec.tables ?? [],
  };
}

export const ordersTable = (title = 'orders'): TableData => ({
  title,
  columns: [
    { name: 'order id', type: 'integer' },
    { name: 'amount', type: 'real' },
    { name: 'customer', type: 'text' },
    { name: 'paid', type: 'boolean' },
  ],
  rows: [
    [1, 10.5, 'ACME', true],
    [2, 20, 'Globex', false],
    [3, null, 'Initech', null],
  ],
});

export const badTable = (): TableData => ({
  title: 'broken',
  columns: [{ name: 'n', type: 'integer' }],
  rows: [[1], ['not a number']],
});

export const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += (a[d] as number) * (b[d] as number);
    na += (a[d] as number) ** 2;
    nb += (b[d] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

export const ids = (hits: readonly { chunkId: string }[]): string[] => hits.map((hit) => hit.chunkId);
export const docOf = (chunkId: string): string => chunkId.slice(0, chunkId.lastIndexOf('#'));
export const sorted = (values: Iterable<string>): string[] => [...values].sort();

export function expectRanked(hits: readonly ChannelHit[]): void {
  hits.forEach((hit, i) => {
    expect(hit.rank).toBe(i + 1);
    if (i > 0) expect(hit.score).toBeLessThanOrEqual((hits[i - 1] as ChannelHit).score);
  });
}

export async function expectRejects(promise: Promise<unknown>, code?: string): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught ?? new Error('rejected with nothing'),
  );
  expect(error, 'expected the call to fail').toBeDefined();
  if (code !== undefined) {
    expect(isEvidentError(error) ? error.code : error).toBe(code);
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import type { DocumentWrite } from '../store.ts';
import { openSqliteStore } from './store.ts';

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const CAROL: Principal = { id: 'carol', groups: ['hr'], roles: ['member'] };
const root = mkdtempSync(join(tmpdir(), 'evident-cross-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const axis = (i: number): Float32Array => {
  const vector = new Float32Array(4);
  vector[i] = 1;
  return vector;
};

const write = (docId: string, vector: Float32Array, acl: string[] = []): DocumentWrite => ({
  document: { docId, source: docId, title: docId, type: 'text', contentHash: docId, bytes: 1, acl, tags: [] },
  chunks: [{ id: `${docId}#0`, docId, ordinal: 0, text: docId, headingPath: [], startOffset: 0, endOffset: 1 }],
  keywordText: [docId.replace('.', '_')],
  vectors: [vector],
  embedder: { id: 'e', dimension: 4 },
  chapters: [],
  tables: [],
});

describe('two connections on one file', () => {
  it("see each other's writes through the generation counter", async () => {
    const path = join(root, 'shared.db');
    const a = await openSqliteStore(path);
    const b = await openSqliteStore(path);
    await a.putDocument(write('one.txt', axis(0)));
    expect((await b.vectorSearch(axis(0), ADMIN, 5)).map((hit) => hit.chunkId)).toEqual(['one.txt#0']);
    expect(b.indexLoads).toBe(1);

    // b's own writes keep its index current without a reload…
    await b.putDocument(write('two.txt', axis(1)));
    expect((await b.vectorSearch(axis(1), ADMIN, 1)).map((hit) => hit.chunkId)).toEqual(['two.txt#0']);
    expect(b.indexLoads).toBe(1);
    expect(a.generation()).toBe(b.generation());

    // …and a's writes (add, replace, delete, ACL change) are seen by b on its next query.
    await a.putDocument(write('three.txt', axis(2)));
    await a.putDocument(write('one.txt', axis(3), ['group:board']));
    expect((await b.vectorSearch(axis(2), ADMIN, 1)).map((hit) => hit.chunkId)).toEqual(['three.txt#0']);
    expect(b.indexLoads).toBe(2);
    expect((await b.vectorSearch(axis(3), CAROL, 5)).map((hit) => hit.chunkId).sort()).toEqual([
      'three.txt#0',
      'two.txt#0',
    ]);
    expect((await b.vectorSearch(axis(3), ADMIN, 1)).map((hit) => hit.chunkId)).toEqual(['one.txt#0']);

    expect(await a.deleteDocument('three.txt')).toBe(true);
    expect((await b.vectorSearch(axis(2), ADMIN, 5)).map((hit) => hit.chunkId)).not.toContain('three.txt#0');
    expect(await b.keywordSearch(['three_txt'], ADMIN, 5)).toEqual([]);

    // a's index was built before b's write interleaved: it reloads rather than missing b's vectors.
    await a.vectorSearch(axis(0), ADMIN, 1);
    const loadsBefore = a.indexLoads;
    await b.putDocument(write('four.txt', axis(0)));
    await a.putDocument(write('five.txt', axis(1)));
    expect((await a.vectorSearch(axis(0), ADMIN, 1)).map((hit) => hit.chunkId)).toEqual(['four.txt#0']);
    expect(a.indexLoads).toBe(loadsBefore + 1);

    await a.close();
    await b.close();
  });

  it('sees a reindex by another connection', async () => {
    const path = join(root, 'reindex.db');
    const a = await openSqliteStore(path);
    const b = await openSqliteStore(path);
    await a.putDocument(write('one.txt', axis(0)));
    await a.putDocument(write('two.txt', axis(1)));
    expect((await b.vectorSearch(axis(0), ADMIN, 1))[0]?.chunkId).toBe('one.txt#0');
    await a.replaceVectors(
      { id: 'e2', dimension: 2 },
      new Map([
        ['one.txt#0', Float32Array.from([0, 1])],
        ['two.txt#0', Float32Array.from([1, 0])],
      ]),
    );
    expect(await b.embedderInfo()).toEqual({ id: 'e2', dimension: 2 });
    expect((await b.vectorSearch(Float32Array.from([1, 0]), ADMIN, 1))[0]?.chunkId).toBe('two.txt#0');
    await a.close();
    await b.close();
  });
});

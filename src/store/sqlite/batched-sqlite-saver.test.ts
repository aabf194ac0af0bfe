import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { emptyCheckpoint } from '@langchain/langgraph';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { BatchedSqliteSaver } from './batched-sqlite-saver.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-batched-saver-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const put = (saver: BatchedSqliteSaver, threadId: string) => {
  const checkpoint = { ...emptyCheckpoint(), id: `checkpoint-${threadId}` };
  return saver.put({ configurable: { thread_id: threadId, checkpoint_ns: '' } }, checkpoint, {
    source: 'loop',
    step: 0,
    parents: {},
  });
};

describe('batched SQLite saver', () => {
  it('commits what many threads write in one turn together, and hands them back a bounded slice per turn', async () => {
    const db = new Database(join(root, 'slices.db'));
    const saver = new BatchedSqliteSaver(db);
    const resolved: string[] = [];
    const threads = Array.from({ length: 40 }, (_, index) => `t${index}`);
    const writes = threads.map((threadId) => put(saver, threadId).then(() => resolved.push(threadId)));
    let turns = 0;
    let most = 0;
    while (resolved.length < threads.length && turns < 100) {
      const before = resolved.length;
      await nextTurn();
      turns += 1;
      most = Math.max(most, resolved.length - before);
    }
    await Promise.all(writes);
    // Every write is committed and every caller goes on, oldest first, never more than a slice of them in one turn.
    expect(resolved).toEqual(threads);
    expect(most).toBeLessThanOrEqual(16);
    expect((db.prepare('SELECT count(*) AS n FROM checkpoints').get() as { n: number }).n).toBe(40);
    db.close();
  });

  it('lets a read see a write whose caller has not been handed back yet', async () => {
    const db = new Database(join(root, 'read.db'));
    const saver = new BatchedSqliteSaver(db);
    let handedBack = false;
    const written = put(saver, 'mine').then(() => {
      handedBack = true;
    });
    await nextTurn();
    expect(handedBack).toBe(false);
    const tuple = await saver.getTuple({ configurable: { thread_id: 'mine', checkpoint_ns: '' } });
    expect(tuple?.checkpoint.id).toBe('checkpoint-mine');
    await written;
    db.close();
  });

  it('writes plain state as the LangGraph serializer does, byte for byte, and hands it anything else', async () => {
    const db = new Database(join(root, 'serde.db'));
    const ours = new BatchedSqliteSaver(db).serde;
    const theirs = new SqliteSaver(db).serde;
    const plain = {
      question: 'Fee?',
      n: 1.5,
      nan: Number.NaN,
      ok: true,
      none: null,
      list: [{ chunk_id: 'a#0', text: 'é "q" \n' }],
      nested: { deep: [[1], []] },
    };
    expect(await ours.dumpsTyped(plain)).toEqual(await theirs.dumpsTyped(plain));
    const tagged = {
      missing: undefined,
      hole: [1, undefined],
      set: new Set(['x']),
      when: new Date(0),
      error: new Error('boom'),
    };
    const [type, bytes] = await ours.dumpsTyped(tagged);
    expect([type, bytes]).toEqual(await theirs.dumpsTyped(tagged));
    expect(await ours.loadsTyped(type, bytes)).toEqual(await theirs.loadsTyped(type, bytes));
    db.close();
  });
});

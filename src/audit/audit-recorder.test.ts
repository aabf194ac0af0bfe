import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/store.ts';
import type { RunRecord } from '../store/store.ts';
import { AuditRecorder } from './audit-recorder.ts';
import { questionSha256 } from './question-fields.ts';

let dir: string;
let store: SqliteStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-audit-recorder-'));
  store = await openSqliteStore(join(dir, 'store.db'));
});
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const bob = { id: 'bob', groups: [], roles: ['member' as const] };
const run: RunRecord = {
  runId: 'r-1',
  threadId: 't-1',
  agent: 'rag',
  user: 'alice',
  question: 'Wie hoch ist die Gebühr?',
  status: 'answered',
  attempt: 2,
  startedAt: new Date().toISOString(),
};

describe('AuditRecorder', () => {
  it('keeps a question verbatim with audit.questions text, and only its SHA-256 with hash', async () => {
    const text = new AuditRecorder({ store, config: { questions: 'text' }, askTopK: 5 });
    const hash = new AuditRecorder({ store, config: { questions: 'hash' }, askTopK: 5 });
    const kept = await text.search({
      principal: bob,
      query: 'refund window',
      surface: 'mcp',
      returnedDocIds: ['a.md'],
      topK: 5,
    });
    expect(kept).toMatchObject({
      actor: 'bob',
      action: 'search',
      surface: 'mcp',
      question: 'refund window',
      returnedDocIds: ['a.md'],
      withheld: 0,
    });
    expect(kept.questionSha256).toBeUndefined();
    const hashed = await hash.search({
      principal: bob,
      query: 'refund window',
      surface: 'http',
      returnedDocIds: [],
      topK: 5,
    });
    expect(hashed.questionSha256).toBe('15b168a5e14517e93eb119a160bef902575e0e62832c43078871d5826273676d');
    expect(hashed.question).toBeUndefined();
    // The hash is of the UTF-8 text, as `printf '%s' "…" | sha256sum` computes it.
    expect(questionSha256('Wie hoch ist die Gebühr?')).toBe(
      'd17bb57240e5426a6d9763222408798b825a8945c1ce70382096ab73c98623b9',
    );
  });

  it("records a run taken over from a dead process as its owner's, without a withheld count it cannot know", async () => {
    const recorder = new AuditRecorder({ store, config: { questions: 'hash' }, askTopK: 5 });
    await recorder.runEnded({ run, evidenceDocIds: ['x.md'], citedDocIds: [] });
    const [entry] = await store.listAudit({ limit: 1, runId: 'r-1' });
    expect(entry).toMatchObject({
      actor: 'alice',
      action: 'ask',
      runId: 'r-1',
      threadId: 't-1',
      outcome: 'answered',
      returnedDocIds: ['x.md'],
      citedDocIds: [],
    });
    expect(entry!.surface).toBeUndefined();
    expect(entry!.withheld).toBeUndefined();
  });
});

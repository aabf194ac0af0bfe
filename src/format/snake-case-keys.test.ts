import { describe, expect, expectTypeOf, it } from 'vitest';
import { snakeCase, snakeCaseKeys } from './snake-case-keys.ts';

describe('snakeCaseKeys', () => {
  it('puts the keys of nested objects and arrays in snake_case and leaves snake_case keys as they are', () => {
    const record = {
      docId: 'a.md',
      chunkCount: 2,
      page_count: 1,
      outcomes: [{ docId: 'a.md', error: { code: 'x', hint: 'y' } }],
      elapsedMs: 5,
    };
    const wire = snakeCaseKeys(record);
    expect(wire).toEqual({
      doc_id: 'a.md',
      chunk_count: 2,
      page_count: 1,
      outcomes: [{ doc_id: 'a.md', error: { code: 'x', hint: 'y' } }],
      elapsed_ms: 5,
    });
    expectTypeOf(wire).toEqualTypeOf<{
      doc_id: string;
      chunk_count: number;
      page_count: number;
      outcomes: { doc_id: string; error: { code: string; hint: string } }[];
      elapsed_ms: number;
    }>();
  });

  it("keeps a client's metadata and a tool call's arguments verbatim", () => {
    const thread = { threadId: 't', metadata: { myTag: 1 }, toolCalls: [{ name: 'q', arguments: { sqlQuery: 's' } }] };
    expect(snakeCaseKeys(thread)).toEqual({
      thread_id: 't',
      metadata: { myTag: 1 },
      tool_calls: [{ name: 'q', arguments: { sqlQuery: 's' } }],
    });
  });

  it('keeps values that are not plain objects (dates, typed arrays, null) as they are', () => {
    const when = new Date(0);
    const vector = new Float32Array([1, 2]);
    expect(snakeCaseKeys({ startedAt: when, vectorData: vector, finishedAt: null, durationMs: undefined })).toEqual({
      started_at: when,
      vector_data: vector,
      finished_at: null,
      duration_ms: undefined,
    });
    expect(snakeCaseKeys([1, 'aB', null])).toEqual([1, 'aB', null]);
  });

  it('maps one key the way the type does', () => {
    expect(['chunkCount', 'p50Ms', 'hit_at_10', 'sqlName'].map(snakeCase)).toEqual([
      'chunk_count',
      'p50_ms',
      'hit_at_10',
      'sql_name',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ragTrace } from './rag-trace.ts';
import type { Candidate, Evidence } from '../../domain/evidence.ts';

const candidate = (query: string, channel: Candidate['channel'], chunk_id: string, rank: number): Candidate => ({
  query,
  channel,
  chunk_id,
  rank,
  score: 1 / rank,
});
const evidence = (chunk_id: string, doc_id: string): Evidence => ({
  chunk_id,
  doc_id,
  source: doc_id,
  title: '',
  heading: '',
  text: 't',
  score: 0.1,
  queries: [],
});

describe('ragTrace', () => {
  it('ranks docs before rerank from the fused lists of every sub-question, ignoring the channel hits', () => {
    const trace = ragTrace({
      candidates: [
        candidate('q1', 'bm25', 'z.md#0', 1),
        candidate('q1', 'fused', 'a.md#0', 1),
        candidate('q1', 'fused', 'b.md#1', 2),
        candidate('q1', 'fused', 'a.md#3', 3),
        candidate('q2', 'fused', 'b.md#0', 1),
        candidate('q2', 'fused', 'c.md#0', 2),
      ],
      evidence: [evidence('b.md#1', 'b.md'), evidence('b.md#0', 'b.md'), evidence('a.md#0', 'a.md')],
      status: 'answered',
    });
    // a.md#0 and b.md#0 each lead one sub-question's list (a tie broken by chunk id); z.md is only a channel hit.
    expect(trace.retrieved_doc_ids).toEqual(['a.md', 'b.md', 'c.md']);
    expect(trace.retrieved_doc_ids).not.toContain('z.md');
    expect(trace.kept_doc_ids).toEqual(['b.md', 'a.md']);
    expect(trace.evidence?.map((item) => item.chunk_id)).toEqual(['b.md#1', 'b.md#0', 'a.md#0']);
  });

  it("judges the arguments of rag's tools by their schemas", () => {
    const call = (name: string, args: Record<string, unknown>) => ({
      name,
      arguments: args,
      result_summary: '',
      ok: true,
      duration_ms: 1,
    });
    const trace = ragTrace({
      tool_calls: [
        call('table_query', { sql: 'SELECT 1' }),
        call('table_query', { query: 'x' }),
        call('save_memory', { text: 'I like tea' }),
      ],
    });
    expect(trace.tool_calls?.map((c) => c.arguments_valid)).toEqual([true, false, true]);
    expect(trace.status).toBe('failed');
  });
});

import { AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { Document } from '@langchain/core/documents';
import { describe, expect, it } from 'vitest';
import { callbackEventJson, checkpointJson, plainJson, taskJson } from './detail-stream-json.ts';

describe('detail chunks as plain JSON', () => {
  it('writes messages, documents, dates and errors plainly, and survives cycles and functions', () => {
    const cyclic: Record<string, unknown> = { name: 'a', run: () => 1 };
    cyclic.self = cyclic;
    expect(
      plainJson({
        message: new HumanMessage({ content: 'hi', id: 'm1' }),
        chunk: new AIMessageChunk({ content: 'to', id: 'm2' }),
        doc: new Document({ pageContent: 'text', metadata: { chunk_id: 'a.md#0' } }),
        at: new Date('2026-01-01T00:00:00Z'),
        error: new Error('boom'),
        cyclic,
        missing: undefined,
        big: 10n,
        nan: Number.NaN,
      }),
    ).toEqual({
      message: { type: 'human', id: 'm1', content: 'hi' },
      chunk: { type: 'AIMessageChunk', id: 'm2', content: 'to' },
      doc: { page_content: 'text', metadata: { chunk_id: 'a.md#0' }, id: null },
      at: '2026-01-01T00:00:00.000Z',
      error: { name: 'Error', message: 'boom' },
      cyclic: { name: 'a', self: '[circular]' },
      missing: null,
      big: '10',
      nan: null,
    });
  });

  it("keeps a checkpoint's ids and drops LangGraph's internal config (callbacks, __pregel keys)", () => {
    const config = {
      callbacks: [{ handler: true }],
      configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: 'c2', __pregel_send: () => 0, nested: {} },
    };
    const json = checkpointJson(
      {
        config,
        parentConfig: { configurable: { thread_id: 't', checkpoint_id: 'c1' } },
        values: { question: 'q' },
        metadata: { source: 'loop', step: 1 },
        next: ['retrieve'],
        tasks: [{ id: 'k', name: 'retrieve', interrupts: [], state: { configurable: { thread_id: 't' } } }],
      },
      (values) => ({ ...values, messages: [] }),
    );
    expect(json).toEqual({
      values: { question: 'q', messages: [] },
      next: ['retrieve'],
      config: { configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: 'c2' } },
      parent_config: { configurable: { thread_id: 't', checkpoint_id: 'c1' } },
      metadata: { source: 'loop', step: 1 },
      tasks: [
        {
          id: 'k',
          name: 'retrieve',
          interrupts: [],
          checkpoint: { thread_id: 't', checkpoint_ns: '', checkpoint_id: null, checkpoint_map: null },
        },
      ],
      checkpoint: { thread_id: 't', checkpoint_ns: '', checkpoint_id: 'c2', checkpoint_map: null },
      parent_checkpoint: { thread_id: 't', checkpoint_ns: '', checkpoint_id: 'c1', checkpoint_map: null },
    });
  });

  it('writes a task result with its error as text, and a callback event with scalar metadata only', () => {
    expect(taskJson({ id: 'k', name: 'n', interrupts: [], result: { a: 1 }, error: new Error('bad') })).toEqual({
      id: 'k',
      name: 'n',
      interrupts: [],
      result: { a: 1 },
      error: 'bad',
    });
    expect(
      callbackEventJson({
        event: 'on_chain_end',
        name: 'retrieve',
        run_id: 'r',
        tags: ['graph:step:1', 3],
        metadata: { langgraph_node: 'retrieve', config: { deep: true }, __pregel_task_id: 'x' },
        data: { output: { evidence: [] } },
      }),
    ).toEqual({
      event: 'on_chain_end',
      name: 'retrieve',
      run_id: 'r',
      tags: ['graph:step:1'],
      metadata: { langgraph_node: 'retrieve' },
      parent_ids: [],
      data: { output: { evidence: [] } },
    });
  });
});

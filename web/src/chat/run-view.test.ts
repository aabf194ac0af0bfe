import { describe, expect, it } from 'vitest';
import { runReducer, type RunAction, type RunView } from './run-view.ts';

const fold = (actions: RunAction[]): RunView | undefined => actions.reduce<RunView | undefined>(runReducer, undefined);
const event = (name: string, data: unknown): RunAction => ({ type: 'event', event: name, data });
const step = (node: string, extra: Record<string, unknown> = {}) =>
  event('custom', { type: 'step', event: { node, duration_ms: 3, summary: `${node} done`, ...extra } });

describe('runReducer', () => {
  it('collects the run id and each step as it completes, then finishes', () => {
    const view = fold([
      { type: 'started', question: 'What is the fee?' },
      event('metadata', { run_id: 'run-1', thread_id: 't-1' }),
      step('rewrite', { standalone_question: 'What is the fee of CT-1?' }),
      event('updates', { rewrite: { standalone_question: 'What is the fee of CT-1?' } }),
      step('retrieve', { hits: [{ query: 'fee', channel: 'bm25', chunk_ids: ['a#0'] }] }),
      event('values', { answer: { answer: 'It is $5. [1]', answerable: true }, mode: 'offline' }),
      { type: 'closed' },
    ]);
    expect(view?.runId).toBe('run-1');
    expect(view?.question).toBe('What is the fee?');
    expect(view?.steps.map((s) => s.node)).toEqual(['rewrite', 'retrieve']);
    expect(view?.steps[0]?.standalone_question).toBe('What is the fee of CT-1?');
    expect(view?.values?.mode).toBe('offline');
    expect(view?.phase).toBe('finished');
  });

  it('stays streaming until the stream closes', () => {
    const view = fold([{ type: 'started', question: 'q' }, step('rewrite')]);
    expect(view?.phase).toBe('streaming');
  });

  it('ends interrupted with the pending action of an __interrupt__ update', () => {
    const pending = { tool: 'save_memory', args: { text: 'I prefer bullet points' }, approval_id: 'run-2:save_memory' };
    const view = fold([
      { type: 'started', question: 'Remember that I prefer bullet points' },
      event('updates', { __interrupt__: [{ id: 'i-1', value: pending }] }),
      { type: 'closed' },
    ]);
    expect(view?.pending).toEqual(pending);
    expect(view?.phase).toBe('interrupted');
  });

  it('ignores interrupts that are no approval request, and custom chunks that are no step', () => {
    const view = fold([
      { type: 'started', question: 'q' },
      event('updates', { __interrupt__: [{ id: 'i-1', value: 'confirm?' }] }),
      event('custom', { type: 'progress', event: {} }),
      { type: 'closed' },
    ]);
    expect(view?.pending).toBeUndefined();
    expect(view?.steps).toEqual([]);
    expect(view?.phase).toBe('finished');
  });

  it('appends token chunks per node and replaces partial messages', () => {
    const view = fold([
      { type: 'started', question: 'q' },
      event('messages', [{ content: 'The fee ' }, { langgraph_node: 'generate' }]),
      event('messages', [{ content: 'is $5.' }, { langgraph_node: 'generate' }]),
      event('messages', [{ content: [{ type: 'text', text: 'ok' }] }, { langgraph_node: 'citation_check' }]),
    ]);
    expect(view?.tokens).toEqual([
      { node: 'generate', text: 'The fee is $5.' },
      { node: 'citation_check', text: 'ok' },
    ]);
    const partial = fold([
      { type: 'started', question: 'q' },
      event('messages/partial', [{ content: 'The' }]),
      event('messages/partial', [{ content: 'The fee' }]),
    ]);
    expect(partial?.tokens).toEqual([{ node: 'model', text: 'The fee' }]);
  });

  it('fails on an error event and stays failed when the stream then closes', () => {
    const view = fold([
      { type: 'started', question: 'q' },
      event('error', { error: 'run_failed', message: 'The model is unreachable.' }),
      { type: 'closed' },
    ]);
    expect(view?.phase).toBe('failed');
    expect(view?.error?.message).toBe('The model is unreachable.');
    expect(view?.error?.code).toBe('run_failed');
  });

  it('starts afresh on a new run and forgets the run when cleared', () => {
    const first = fold([{ type: 'started', question: 'a' }, step('rewrite'), { type: 'closed' }]);
    const second = runReducer(first, { type: 'started', question: undefined });
    expect(second?.steps).toEqual([]);
    expect(second?.question).toBeUndefined();
    expect(runReducer(second, { type: 'cleared' })).toBeUndefined();
  });
});

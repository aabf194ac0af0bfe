import { describe, expect, it } from 'vitest';
import { LAYERS, type LayerName } from '../layers/layer-result.ts';
import { compareResults, renderComparison } from './compare-results.ts';

type Status = 'pass' | 'fail' | 'n/a';
const result = (id: string, statuses: Partial<Record<LayerName, Status>>, agent = 'rag') => {
  const layers = Object.fromEntries(LAYERS.map((layer) => [layer, { status: statuses[layer] ?? 'pass', detail: '' }]));
  const first = LAYERS.find((layer) => statuses[layer] === 'fail') ?? null;
  return { id, agent, passed: first === null, first_failure: first, layers };
};

describe('compareResults', () => {
  const before = [
    result('fixed', { retrieval: 'fail', answer: 'fail' }),
    result('broken', {}),
    result('later', { retrieval: 'fail' }),
    result('same', { tools: 'fail' }),
    result('gone', {}),
  ];
  const after = [
    result('fixed', {}),
    result('broken', { citations: 'fail' }),
    result('later', { answer: 'fail' }),
    result('same', { tools: 'fail' }),
    result('new', {}),
  ];
  const comparison = compareResults(before, after);

  it('classifies each case matched by agent and id, naming the layers that changed', () => {
    const byId = Object.fromEntries(comparison.changes.map((change) => [change.id, change]));
    expect(byId.fixed).toMatchObject({
      verdict: 'improved',
      improved: [{ layer: 'retrieval' }, { layer: 'answer' }],
      regressed: [],
    });
    expect(byId.broken).toMatchObject({
      verdict: 'regressed',
      regressed: [{ layer: 'citations', before: 'pass', after: 'fail' }],
    });
    // The first failure moved later in the pipeline: better, though the case still fails.
    expect(byId.later).toMatchObject({
      verdict: 'improved',
      before: { first_failure: 'retrieval' },
      after: { first_failure: 'answer' },
    });
    expect(byId.same?.verdict).toBe('unchanged');
    expect(comparison.only_before).toEqual(['rag/gone']);
    expect(comparison.only_after).toEqual(['rag/new']);
    expect(comparison.counts).toEqual({ improved: 2, regressed: 1, changed: 0, unchanged: 1 });
  });

  it('treats the same id under another agent as another case', () => {
    expect(compareResults([result('a', {}, 'rag')], [result('a', {}, 'react')])).toMatchObject({
      changes: [],
      only_before: ['rag/a'],
      only_after: ['react/a'],
    });
  });

  it('prints one line per changed case and a summary line', () => {
    const text = renderComparison(comparison);
    expect(text).toContain('improved  rag/fixed: fail at retrieval → pass (now passes retrieval, answer)');
    expect(text).toContain('regressed rag/broken: pass → fail at citations (now fails citations)');
    expect(text).not.toContain('rag/same');
    expect(text.trim().split('\n').at(-1)).toBe(
      '2 improved, 1 regressed, 0 changed, 1 unchanged; 1 removed, 1 added; pass rate 40.0% → 40.0%',
    );
  });
});

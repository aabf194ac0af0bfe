import { describe, expect, it } from 'vitest';
import type { GraphJson } from '../api/wire-types.ts';
import { layoutGraph } from './graph-layout.ts';

/**
 * A `rag` graph's shape (as `evident graph rag --mermaid` printed it before the `both` route; docs/agents.md shows
 * today's), with its retry loop citation_check → generate.
 */
const RAG: GraphJson = {
  nodes: [
    '__start__',
    'load_memory',
    'rewrite',
    'decompose',
    'route_question',
    'table_query',
    'answer_directly',
    'retrieve',
    'merge_rerank',
    'check_answerability',
    'generate',
    'citation_check',
    'refuse',
    'save_memory',
    'finalize',
    '__end__',
  ].map((id) => ({ id })),
  edges: [
    ['__start__', 'load_memory', false],
    ['load_memory', 'save_memory', true, 'remember'],
    ['load_memory', 'rewrite', true, 'ask'],
    ['rewrite', 'decompose', false],
    ['decompose', 'route_question', false],
    ['route_question', 'table_query', true, 'table'],
    ['route_question', 'retrieve', true],
    ['route_question', 'answer_directly', true, 'direct'],
    ['table_query', 'finalize', true, 'answered'],
    ['table_query', 'retrieve', true, 'fallback'],
    ['retrieve', 'merge_rerank', false],
    ['merge_rerank', 'check_answerability', false],
    ['check_answerability', 'generate', true, 'sufficient'],
    ['check_answerability', 'refuse', true, 'insufficient'],
    ['generate', 'citation_check', true, 'check'],
    ['generate', 'finalize', true, 'failed'],
    ['citation_check', 'finalize', true, 'done'],
    ['citation_check', 'generate', true, 'retry'],
    ['answer_directly', 'finalize', false],
    ['refuse', 'finalize', false],
    ['save_memory', 'finalize', false],
    ['finalize', '__end__', false],
  ].map(([source, target, conditional, data]) => ({
    source: String(source),
    target: String(target),
    conditional: Boolean(conditional),
    ...(data ? { data } : {}),
  })),
};

const byId = (layout: ReturnType<typeof layoutGraph>) => new Map(layout.nodes.map((node) => [node.id, node]));

describe('layoutGraph', () => {
  const layout = layoutGraph(RAG);
  const nodes = byId(layout);

  it('places every node, __start__ alone on top and __end__ alone at the bottom', () => {
    expect(layout.nodes).toHaveLength(RAG.nodes.length);
    const start = nodes.get('__start__')!;
    const end = nodes.get('__end__')!;
    expect(start.layer).toBe(0);
    expect(layout.nodes.filter((node) => node.layer === 0)).toHaveLength(1);
    expect(layout.nodes.every((node) => node.id === '__end__' || node.layer < end.layer)).toBe(true);
    expect(start.kind).toBe('start');
    expect(end.kind).toBe('end');
  });

  it('puts every target of a forward edge below its source', () => {
    for (const edge of layout.edges.filter((e) => !e.back)) {
      expect(nodes.get(edge.target)!.layer, `${edge.source} → ${edge.target}`).toBeGreaterThan(
        nodes.get(edge.source)!.layer,
      );
    }
  });

  it('draws the retry loop as the one back edge, and keeps conditions and labels', () => {
    const back = layout.edges.filter((e) => e.back);
    expect(back.map((e) => `${e.source}->${e.target}`)).toEqual(['citation_check->generate']);
    expect(back[0]?.label).toBe('retry');
    expect(layout.edges.find((e) => e.source === 'rewrite')?.conditional).toBe(false);
    expect(layout.edges.filter((e) => e.conditional)).toHaveLength(RAG.edges.filter((e) => e.conditional).length);
  });

  it('keeps nodes of a row apart and inside the drawing', () => {
    for (const node of layout.nodes) {
      expect(node.x).toBeGreaterThanOrEqual(0);
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
      for (const other of layout.nodes) {
        if (other === node || other.layer !== node.layer) continue;
        expect(
          node.x + node.width <= other.x || other.x + other.width <= node.x,
          `${node.id} overlaps ${other.id}`,
        ).toBe(true);
      }
    }
  });

  it('runs an edge that skips rows beside the nodes of those rows, never through them', () => {
    const skipping = layout.edges.filter(
      (edge) => !edge.back && nodes.get(edge.target)!.layer - nodes.get(edge.source)!.layer > 1,
    );
    expect(skipping.map((edge) => `${edge.source}->${edge.target}`)).toContain('save_memory->finalize');
    for (const edge of skipping) {
      const throughRows = [...edge.path.matchAll(/ L ([\d.]+) ([\d.]+)/g)].map((match) => ({
        x: Number(match[1]),
        bottom: Number(match[2]),
      }));
      expect(throughRows).toHaveLength(nodes.get(edge.target)!.layer - nodes.get(edge.source)!.layer - 1);
      for (const { x, bottom } of throughRows) {
        const row = layout.nodes.filter((node) => node.y + node.height === bottom);
        expect(row.length).toBeGreaterThan(0);
        for (const node of row)
          expect(x < node.x || x > node.x + node.width, `${edge.source}->${edge.target} crosses ${node.id}`).toBe(true);
      }
    }
  });

  it('ignores edges to nodes the graph does not have', () => {
    const partial = layoutGraph({
      nodes: [{ id: '__start__' }, { id: 'a' }],
      edges: [
        { source: '__start__', target: 'a' },
        { source: 'a', target: 'ghost' },
      ],
    });
    expect(partial.edges).toHaveLength(1);
    expect(byId(partial).get('a')?.layer).toBe(1);
  });
});

import type { GraphJson } from '../api/wire-types.ts';

export interface PlacedNode {
  id: string;
  kind: 'start' | 'end' | 'node';
  layer: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedEdge {
  source: string;
  target: string;
  conditional: boolean;
  /** Points back up the layers (a retry loop): drawn around the side. */
  back: boolean;
  label: string | undefined;
  path: string;
  labelAt: { x: number; y: number };
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

const NODE_HEIGHT = 34;
const LAYER_GAP = 52;
const NODE_GAP = 28;
const CHAR_WIDTH = 7.4;
const MARGIN = 24;
const BACK_EDGE_ROOM = 60;

const START = '__start__';
const END = '__end__';

const kindOf = (id: string): PlacedNode['kind'] => (id === START ? 'start' : id === END ? 'end' : 'node');
const labelOf = (data: unknown): string | undefined => (typeof data === 'string' && data.trim() ? data : undefined);

/** Edges that close a cycle (found by depth-first search from `__start__`): they are left out when layering. */
function findBackEdges(ids: string[], edges: GraphJson['edges']): Set<number> {
  const out = new Map<string, number[]>();
  edges.forEach((edge, i) => out.set(edge.source, [...(out.get(edge.source) ?? []), i]));
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<number>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const i of out.get(id) ?? []) {
      const target = edges[i]?.target ?? '';
      const seen = state.get(target);
      if (seen === 'open') back.add(i);
      else if (seen === undefined) visit(target);
    }
    state.set(id, 'done');
  };
  for (const id of [START, ...ids]) if (ids.includes(id) && !state.has(id)) visit(id);
  return back;
}

/** Longest path from the sources over the acyclic edges; `__end__` always sits alone at the bottom. */
function assignLayers(ids: string[], forward: GraphJson['edges']): Map<string, number> {
  const layer = new Map(ids.map((id) => [id, 0]));
  // Relaxing |V| times settles longest paths in a DAG without needing a topological order first.
  for (let round = 0; round < ids.length; round += 1) {
    let changed = false;
    for (const { source, target } of forward) {
      const next = (layer.get(source) ?? 0) + 1;
      if (target !== END && next > (layer.get(target) ?? 0)) {
        layer.set(target, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  if (layer.has(END)) {
    const deepest = Math.max(0, ...[...layer].filter(([id]) => id !== END).map(([, depth]) => depth));
    layer.set(END, deepest + 1);
  }
  return layer;
}

/** Orders each layer by the mean position of the nodes above it that point at it, which keeps edges short. */
function orderLayers(ids: string[], layer: Map<string, number>, forward: GraphJson['edges']): string[][] {
  const depth = Math.max(0, ...layer.values());
  const rows: string[][] = Array.from({ length: depth + 1 }, () => []);
  for (const id of ids) rows[layer.get(id) ?? 0]?.push(id);
  const position = new Map<string, number>();
  rows.forEach((row, r) => {
    if (r > 0) {
      const centre = (id: string) => {
        const above = forward.filter((edge) => edge.target === id).map((edge) => position.get(edge.source));
        const known = above.filter((p): p is number => p !== undefined);
        return known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : Number.POSITIVE_INFINITY;
      };
      const original = new Map(row.map((id, i) => [id, i]));
      row.sort((a, b) => centre(a) - centre(b) || (original.get(a) ?? 0) - (original.get(b) ?? 0));
    }
    row.forEach((id, i) => position.set(id, i - (row.length - 1) / 2));
  });
  return rows;
}

/**
 * A top-to-bottom layered drawing of an agent graph: nodes in rows by longest path from `__start__`, each row
 * centred, edges as curves between rows; edges that loop back go around the right side.
 */
export function layoutGraph(graph: GraphJson): GraphLayout {
  const ids = graph.nodes.map((node) => node.id);
  const known = new Set(ids);
  const edges = graph.edges.filter((edge) => known.has(edge.source) && known.has(edge.target));
  const back = findBackEdges(ids, edges);
  const forward = edges.filter((_, i) => !back.has(i));
  const layer = assignLayers(ids, forward);
  const rows = orderLayers(ids, layer, forward);

  const widthOf = (id: string) => Math.round(id.length * CHAR_WIDTH + 28);
  const rowWidths = rows.map((row) => row.reduce((sum, id) => sum + widthOf(id), 0) + NODE_GAP * Math.max(0, row.length - 1));
  const contentWidth = Math.max(0, ...rowWidths);
  const placed = new Map<string, PlacedNode>();
  rows.forEach((row, r) => {
    let x = MARGIN + (contentWidth - (rowWidths[r] ?? 0)) / 2;
    for (const id of row) {
      const width = widthOf(id);
      placed.set(id, { id, kind: kindOf(id), layer: r, x, y: MARGIN + r * (NODE_HEIGHT + LAYER_GAP), width, height: NODE_HEIGHT });
      x += width + NODE_GAP;
    }
  });

  const rightmost = MARGIN + contentWidth;
  const drawn = edges.flatMap((edge, i): PlacedEdge[] => {
    const from = placed.get(edge.source);
    const to = placed.get(edge.target);
    if (!from || !to) return [];
    const base = { source: edge.source, target: edge.target, conditional: edge.conditional === true, label: labelOf(edge.data) };
    if (back.has(i) || from.layer >= to.layer) {
      const x1 = from.x + from.width;
      const y1 = from.y + from.height / 2;
      const x2 = to.x + to.width;
      const y2 = to.y + to.height / 2;
      const bulge = Math.max(x1, x2, rightmost) + BACK_EDGE_ROOM / 2;
      return [{ ...base, back: true, path: `M ${x1} ${y1} C ${bulge} ${y1}, ${bulge} ${y2}, ${x2} ${y2}`, labelAt: { x: bulge - 4, y: (y1 + y2) / 2 } }];
    }
    const x1 = from.x + from.width / 2;
    const y1 = from.y + from.height;
    const x2 = to.x + to.width / 2;
    const y2 = to.y;
    const bend = (y2 - y1) / 2;
    return [
      {
        ...base,
        back: false,
        path: `M ${x1} ${y1} C ${x1} ${y1 + bend}, ${x2} ${y2 - bend}, ${x2} ${y2}`,
        labelAt: { x: (x1 + x2) / 2, y: (y1 + y2) / 2 },
      },
    ];
  });

  const bottom = Math.max(0, ...[...placed.values()].map((node) => node.y + node.height));
  return { width: rightmost + MARGIN + BACK_EDGE_ROOM, height: bottom + MARGIN, nodes: [...placed.values()], edges: drawn };
}

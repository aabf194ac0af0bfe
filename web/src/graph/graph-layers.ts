import type { GraphJson } from '../api/wire-types.ts';

export const START = '__start__';
export const END = '__end__';

type Edge = GraphJson['edges'][number];

/** A slot in a row: a node, or a waypoint of an edge that passes through the row on its way down. */
export interface Slot {
  id: string;
  /** The edge (its index) a waypoint belongs to; undefined for nodes. */
  edge: number | undefined;
}

export interface Layering {
  /** Indices of edges that close a cycle: drawn back up, left out of the layering. */
  back: Set<number>;
  layerOf: Map<string, number>;
  /** Top to bottom, each ordered left to right. */
  rows: Slot[][];
  /** For each forward edge, the waypoint ids it passes through, top to bottom. */
  waypoints: Map<number, string[]>;
  /** Slot ids linked between consecutive rows (upper, lower): forward edges cut at their waypoints. */
  links: [string, string][];
}

/** Edges that close a cycle, found by depth-first search from `__start__`. */
function findBackEdges(ids: string[], edges: Edge[]): Set<number> {
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

/** Longest path from the sources over the acyclic edges; `__end__` sits alone at the bottom. */
function assignLayers(ids: string[], forward: Edge[]): Map<string, number> {
  const layer = new Map(ids.map((id) => [id, 0]));
  // Relaxing |V| times settles longest paths in a DAG without a topological sort first.
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
  if (layer.has(END))
    layer.set(END, Math.max(0, ...[...layer].filter(([id]) => id !== END).map(([, depth]) => depth)) + 1);
  return layer;
}

/**
 * Sorts each row by the mean position of its neighbours in the row above (sweeping down) or below (sweeping up),
 * a few times: the usual barycenter heuristic, which keeps crossings few.
 */
function reduceCrossings(rows: Slot[][], links: [string, string][]): void {
  const up = new Map<string, string[]>();
  const down = new Map<string, string[]>();
  for (const [upper, lower] of links) {
    up.set(lower, [...(up.get(lower) ?? []), upper]);
    down.set(upper, [...(down.get(upper) ?? []), lower]);
  }
  const position = new Map<string, number>();
  const index = () => rows.forEach((row) => row.forEach((slot, i) => position.set(slot.id, i)));
  const sortBy = (row: Slot[], neighbours: Map<string, string[]>) => {
    const centre = (slot: Slot) => {
      const known = (neighbours.get(slot.id) ?? [])
        .map((id) => position.get(id))
        .filter((p): p is number => p !== undefined);
      return known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : (position.get(slot.id) ?? 0);
    };
    const centres = new Map(row.map((slot) => [slot.id, centre(slot)]));
    row.sort(
      (a, b) =>
        (centres.get(a.id) ?? 0) - (centres.get(b.id) ?? 0) || (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0),
    );
    row.forEach((slot, i) => position.set(slot.id, i));
  };
  index();
  for (let sweep = 0; sweep < 4; sweep += 1) {
    for (let r = 1; r < rows.length; r += 1) sortBy(rows[r] ?? [], up);
    for (let r = rows.length - 2; r >= 0; r -= 1) sortBy(rows[r] ?? [], down);
  }
  for (let r = 1; r < rows.length; r += 1) sortBy(rows[r] ?? [], up);
}

/** Rows of nodes and edge waypoints for a top-to-bottom drawing (Sugiyama style: layer, add waypoints, order). */
export function layerGraph(ids: string[], edges: Edge[]): Layering {
  const back = findBackEdges(ids, edges);
  const forwardIndices = edges.map((_, i) => i).filter((i) => !back.has(i));
  const layerOf = assignLayers(
    ids,
    forwardIndices.map((i) => edges[i] as Edge),
  );
  const depth = Math.max(0, ...layerOf.values());
  const rows: Slot[][] = Array.from({ length: depth + 1 }, () => []);
  for (const id of ids) rows[layerOf.get(id) ?? 0]?.push({ id, edge: undefined });

  const waypoints = new Map<number, string[]>();
  const links: [string, string][] = [];
  for (const i of forwardIndices) {
    const { source, target } = edges[i] as Edge;
    const from = layerOf.get(source) ?? 0;
    const to = layerOf.get(target) ?? 0;
    const chain: string[] = [];
    for (let r = from + 1; r < to; r += 1) {
      const id = `${source}\u0000${target}\u0000${i}\u0000${r}`;
      rows[r]?.push({ id, edge: i });
      chain.push(id);
    }
    waypoints.set(i, chain);
    const path = [source, ...chain, target];
    for (let k = 1; k < path.length; k += 1) links.push([path[k - 1] ?? '', path[k] ?? '']);
  }
  reduceCrossings(rows, links);
  return { back, layerOf, rows, waypoints, links };
}

import type { GraphJson } from '../api/wire-types.ts';
import { END, START, layerGraph, type Slot } from './graph-layers.ts';

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
  /** Points back up the layers (a retry loop): drawn around the right side. */
  back: boolean;
  label: string | undefined;
  path: string;
  labelAt: { x: number; y: number; anchor: 'middle' | 'start' };
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
const WAYPOINT_WIDTH = 8;
const CHAR_WIDTH = 7.4;
const MARGIN = 24;
const LANE_GAP = 22;
const LABEL_ROOM = 70;

interface Point {
  x: number;
  y: number;
}

const kindOf = (id: string): PlacedNode['kind'] => (id === START ? 'start' : id === END ? 'end' : 'node');
const labelOf = (data: unknown): string | undefined => (typeof data === 'string' && data.trim() ? data : undefined);
const nodeWidth = (id: string) => Math.round(id.length * CHAR_WIDTH + 28);

const widthOf = (slot: Slot) => (slot.edge === undefined ? nodeWidth(slot.id) : WAYPOINT_WIDTH);

/**
 * x positions that keep each row's order and gaps while pulling every slot towards the mean centre of the slots it
 * links to, so edges run as straight as the gaps allow. Rows start centred; a few relaxation rounds follow.
 */
function placeRows(rows: Slot[][], links: [string, string][]): Map<string, PlacedNode> {
  const neighbours = new Map<string, string[]>();
  for (const [a, b] of links) {
    neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
    neighbours.set(b, [...(neighbours.get(b) ?? []), a]);
  }
  const rowWidth = (row: Slot[]) =>
    row.reduce((sum, slot) => sum + widthOf(slot), 0) + NODE_GAP * Math.max(0, row.length - 1);
  const widest = Math.max(0, ...rows.map(rowWidth));
  const centre = new Map<string, number>();
  for (const row of rows) {
    let x = (widest - rowWidth(row)) / 2;
    for (const slot of row) {
      centre.set(slot.id, x + widthOf(slot) / 2);
      x += widthOf(slot) + NODE_GAP;
    }
  }
  for (let round = 0; round < 12; round += 1) {
    for (const row of rows) {
      const wanted = row.map((slot) => {
        const around = (neighbours.get(slot.id) ?? []).map((id) => centre.get(id) ?? 0);
        return around.length > 0 ? around.reduce((a, b) => a + b, 0) / around.length : (centre.get(slot.id) ?? 0);
      });
      // Left to right, each slot goes where it wants unless that overlaps its left neighbour; then the row moves back
      // by the mean push, so pushing does not drift rows to the right.
      const placed: number[] = [];
      row.forEach((slot, i) => {
        const previous = row[i - 1];
        const least = previous
          ? (placed[i - 1] ?? 0) + widthOf(previous) / 2 + NODE_GAP + widthOf(slot) / 2
          : Number.NEGATIVE_INFINITY;
        placed.push(Math.max(wanted[i] ?? 0, least));
      });
      const drift = placed.reduce((sum, x, i) => sum + x - (wanted[i] ?? 0), 0) / Math.max(1, placed.length);
      row.forEach((slot, i) => centre.set(slot.id, (placed[i] ?? 0) - drift));
    }
  }
  const left = Math.min(...rows.flatMap((row) => row.map((slot) => (centre.get(slot.id) ?? 0) - widthOf(slot) / 2)));
  const boxes = new Map<string, PlacedNode>();
  rows.forEach((row, r) => {
    for (const slot of row) {
      const width = widthOf(slot);
      const x = MARGIN + (centre.get(slot.id) ?? 0) - width / 2 - left;
      boxes.set(slot.id, {
        id: slot.id,
        kind: kindOf(slot.id),
        layer: r,
        x,
        y: MARGIN + r * (NODE_HEIGHT + LAYER_GAP),
        width,
        height: NODE_HEIGHT,
      });
    }
  });
  return boxes;
}

/**
 * Where a label sits: on the edge's first curve, past its middle, where edges leaving one node have spread apart.
 * (The curve is the cubic Bézier `downPath` draws, with vertical tangents at both ends.)
 */
function labelPoint(from: Point, to: Point): Point {
  const t = 0.62;
  const across = 3 * (1 - t) * t * t + t * t * t;
  const down = 1.5 * (1 - t) * (1 - t) * t + 1.5 * (1 - t) * t * t + t * t * t;
  return { x: from.x + (to.x - from.x) * across, y: from.y + (to.y - from.y) * down };
}

/** Down through the points: curves between rows, straight through a waypoint's row. */
function downPath(points: Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let path = `M ${first.x} ${first.y}`;
  let previous = first;
  rest.forEach((point, i) => {
    const throughRow = i % 2 === 1;
    if (throughRow) path += ` L ${point.x} ${point.y}`;
    else {
      const bend = (point.y - previous.y) / 2;
      path += ` C ${previous.x} ${previous.y + bend}, ${point.x} ${point.y - bend}, ${point.x} ${point.y}`;
    }
    previous = point;
  });
  return path;
}

/**
 * A top-to-bottom layered drawing of an agent graph: nodes in rows by longest path from `__start__`, edges that
 * skip rows pass through waypoints of their own (so they never cut through a node), rows ordered to keep
 * crossings few, and edges that loop back run up a lane on the right.
 */
export function layoutGraph(graph: GraphJson): GraphLayout {
  const ids = graph.nodes.map((node) => node.id);
  const known = new Set(ids);
  const edges = graph.edges.filter((edge) => known.has(edge.source) && known.has(edge.target));
  const { back, layerOf, rows, waypoints, links } = layerGraph(ids, edges);

  const boxes = placeRows(rows, links);
  const contentWidth = Math.max(0, ...[...boxes.values()].map((box) => box.x + box.width)) - MARGIN;
  const centreX = (box: PlacedNode) => box.x + box.width / 2;

  let lane = MARGIN + contentWidth;
  const drawn = edges.flatMap((edge, i): PlacedEdge[] => {
    const from = boxes.get(edge.source);
    const to = boxes.get(edge.target);
    if (!from || !to) return [];
    const base = {
      source: edge.source,
      target: edge.target,
      conditional: edge.conditional === true,
      label: labelOf(edge.data),
    };
    if (back.has(i)) {
      lane += LANE_GAP;
      const entry = { x: to.x + to.width * 0.75, y: to.y - 12 };
      return [
        {
          ...base,
          back: true,
          path: `M ${from.x + from.width} ${from.y + from.height / 2} H ${lane} V ${entry.y} H ${entry.x} V ${to.y}`,
          labelAt: { x: lane + 4, y: (from.y + to.y) / 2 + NODE_HEIGHT / 2, anchor: 'start' },
        },
      ];
    }
    const points: Point[] = [{ x: centreX(from), y: from.y + from.height }];
    for (const id of waypoints.get(i) ?? []) {
      const waypoint = boxes.get(id);
      if (waypoint)
        points.push({ x: centreX(waypoint), y: waypoint.y }, { x: centreX(waypoint), y: waypoint.y + waypoint.height });
    }
    points.push({ x: centreX(to), y: to.y });
    return [
      {
        ...base,
        back: false,
        path: downPath(points),
        labelAt: { ...labelPoint(points[0] as Point, points[1] as Point), anchor: 'middle' },
      },
    ];
  });

  const nodes = [...boxes.values()].filter((box) => known.has(box.id) && layerOf.has(box.id));
  const bottom = Math.max(0, ...nodes.map((node) => node.y + node.height));
  return { width: lane + LABEL_ROOM + MARGIN, height: bottom + MARGIN, nodes, edges: drawn };
}

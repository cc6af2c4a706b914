import { hierarchy, tree } from 'd3-hierarchy';
import type { DependencyRecord, NodeRecord } from '../api/types.ts';
import { buildTreeStructure } from './tree-structure.ts';

/** Size of a node's card and the gaps between cards, in map units. */
export const NODE_WIDTH = 232;
export const NODE_HEIGHT = 70;
const ROW_GAP = 18;
const COLUMN_GAP = 84;

/** A node placed on the map (x, y: top-left of its card). */
export interface PlacedNode {
  node: NodeRecord;
  x: number;
  y: number;
  depth: number;
}

/** An edge drawn as an SVG path. */
export interface LaidOutEdge {
  id: string;
  from: string;
  to: string;
  path: string;
}

/** A divergent-mode level drawn as a band behind its nodes. */
export interface LevelBand {
  level: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Everything the tree canvas draws. */
export interface TreeLayout {
  placed: PlacedNode[];
  byId: Map<string, PlacedNode>;
  treeEdges: LaidOutEdge[];
  dependencyEdges: LaidOutEdge[];
  levels: LevelBand[];
  bounds: { x: number; y: number; width: number; height: number };
}

interface Datum {
  node: NodeRecord | null;
  children: Datum[];
}

/**
 * Lays the map out as a tidy tree growing left to right (d3-hierarchy's Reingold–Tilford layout), then
 * routes dependency edges between the placed cards and finds the bands of divergent levels.
 */
export function layoutTree(nodes: Iterable<NodeRecord>, dependencies: Iterable<DependencyRecord>): TreeLayout {
  const structure = buildTreeStructure(nodes);
  const toDatum = (node: NodeRecord): Datum => ({
    node,
    children: (structure.childrenOf.get(node.id) ?? []).map(toDatum),
  });
  const top: Datum = { node: null, children: structure.roots.map(toDatum) };
  const root = tree<Datum>()
    .nodeSize([NODE_HEIGHT + ROW_GAP, NODE_WIDTH + COLUMN_GAP])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(hierarchy(top, (d) => d.children));

  const placed: PlacedNode[] = [];
  const byId = new Map<string, PlacedNode>();
  const treeEdges: LaidOutEdge[] = [];
  for (const item of root.descendants()) {
    if (!item.data.node) continue;
    const depth = item.depth - 1;
    const place: PlacedNode = {
      node: item.data.node,
      x: depth * (NODE_WIDTH + COLUMN_GAP),
      y: item.x - NODE_HEIGHT / 2,
      depth,
    };
    placed.push(place);
    byId.set(place.node.id, place);
  }
  for (const place of placed) {
    const parent = place.node.parentId ? byId.get(place.node.parentId) : undefined;
    if (parent)
      treeEdges.push({
        id: `t-${place.node.id}`,
        from: parent.node.id,
        to: place.node.id,
        path: childEdgePath(parent, place),
      });
  }
  const dependencyEdges: LaidOutEdge[] = [];
  for (const dep of dependencies) {
    const from = byId.get(dep.dependsOnId);
    const to = byId.get(dep.nodeId);
    if (from && to)
      dependencyEdges.push({
        id: `d-${dep.id}`,
        from: from.node.id,
        to: to.node.id,
        path: dependencyEdgePath(from, to),
      });
  }
  return { placed, byId, treeEdges, dependencyEdges, levels: levelBands(placed), bounds: boundsOf(placed) };
}

function childEdgePath(parent: PlacedNode, child: PlacedNode): string {
  const x1 = parent.x + NODE_WIDTH;
  const y1 = parent.y + NODE_HEIGHT / 2;
  const x2 = child.x;
  const y2 = child.y + NODE_HEIGHT / 2;
  const mid = (x1 + x2) / 2;
  return `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
}

/** Where the line from a card's centre towards (px, py) leaves the card. */
export function exitPoint(place: { x: number; y: number }, px: number, py: number): [number, number] {
  const cx = place.x + NODE_WIDTH / 2;
  const cy = place.y + NODE_HEIGHT / 2;
  const dx = px - cx;
  const dy = py - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const t = Math.min(
    dx === 0 ? Infinity : NODE_WIDTH / 2 / Math.abs(dx),
    dy === 0 ? Infinity : NODE_HEIGHT / 2 / Math.abs(dy),
  );
  return [cx + dx * t, cy + dy * t];
}

function dependencyEdgePath(from: PlacedNode, to: PlacedNode): string {
  if (Math.abs(from.x - to.x) < NODE_WIDTH) return sameColumnPath(from, to);
  const fx = from.x + NODE_WIDTH / 2;
  const fy = from.y + NODE_HEIGHT / 2;
  const tx = to.x + NODE_WIDTH / 2;
  const ty = to.y + NODE_HEIGHT / 2;
  const length = Math.hypot(tx - fx, ty - fy) || 1;
  // Bend sideways so a dependency never hides under a parent–child edge.
  const bend = Math.min(120, 30 + length / 5);
  const cx = (fx + tx) / 2 + ((ty - fy) / length) * bend;
  const cy = (fy + ty) / 2 - ((tx - fx) / length) * bend;
  const [sx, sy] = exitPoint(from, cx, cy);
  const [ex, ey] = exitPoint(to, cx, cy);
  return `M${round(sx)},${round(sy)} Q${round(cx)},${round(cy)} ${round(ex)},${round(ey)}`;
}

/** Cards in one column: loop out on their right so the curve never hides between them. */
function sameColumnPath(from: PlacedNode, to: PlacedNode): string {
  const fx = from.x + NODE_WIDTH;
  const fy = from.y + NODE_HEIGHT / 2 + (to.y > from.y ? 8 : -8);
  const tx = to.x + NODE_WIDTH;
  const ty = to.y + NODE_HEIGHT / 2 + (to.y > from.y ? -8 : 8);
  const reach = 36 + Math.min(120, Math.abs(ty - fy) * 0.3);
  return `M${round(fx)},${round(fy)} C${round(fx + reach)},${round(fy)} ${round(tx + reach)},${round(ty)} ${round(tx + 2)},${round(ty)}`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function levelBands(placed: PlacedNode[]): LevelBand[] {
  const byLevel = new Map<number, PlacedNode[]>();
  for (const place of placed) {
    const level = place.node.divergentLevel;
    if (level === null || level === undefined) continue;
    byLevel.set(level, [...(byLevel.get(level) ?? []), place]);
  }
  const pad = 14;
  return [...byLevel.entries()]
    .sort(([a], [b]) => a - b)
    .map(([level, members]) => {
      const box = boundsOf(members);
      return {
        level,
        x: box.x - pad,
        y: box.y - pad - 18,
        width: box.width + 2 * pad,
        height: box.height + 2 * pad + 18,
      };
    });
}

function boundsOf(placed: PlacedNode[]): TreeLayout['bounds'] {
  if (!placed.length) return { x: 0, y: 0, width: 0, height: 0 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const { x, y } of placed) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + NODE_WIDTH);
    maxY = Math.max(maxY, y + NODE_HEIGHT);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

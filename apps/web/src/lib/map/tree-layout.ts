import { hierarchy, tree } from 'd3-hierarchy';
import type { MapDependency, MapNode } from '../api/results.ts';
import { type CardBox, type Columns, columnsOf, type Route, routeDependency } from './dependency-route.ts';
import { buildTreeStructure } from './tree-structure.ts';

/** Size of a node's card and the gaps between cards, in map units. */
export const NODE_WIDTH = 232;
export const NODE_HEIGHT = 74;
const ROW_GAP = 18;
export const COLUMN_GAP = 84;

/** A proposed child drawn as a ghost card until the person approves or rejects the proposal. */
export interface GhostChild {
  id: string;
  parentId: string;
}

/** A card placed on the map (x, y: its top-left corner). */
export interface PlacedNode extends CardBox {
  id: string;
  parentId: string | null;
  /** The node's divergent level, for the level bands. */
  level: number | null;
  /** A proposed child, not (yet) a node of the map. */
  ghost: boolean;
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
  /** Dependencies: `from` is the node waited for, `to` the node that waits. */
  dependencyEdges: LaidOutEdge[];
  levels: LevelBand[];
  bounds: { x: number; y: number; width: number; height: number };
  /** Routes a line between two placed cards around the others (for a refused dependency). */
  route(fromId: string, toId: string): Route | null;
}

interface Datum {
  id: string | null;
  parentId: string | null;
  level: number | null;
  ghost: boolean;
  children: Datum[];
}

/**
 * Lays the shown nodes out as a tidy tree growing left to right (d3-hierarchy's Reingold–Tilford layout), with
 * proposed children as ghost cards after their parent's children; routes each dependency through the free
 * space between cards, and finds the bands of divergent levels.
 */
export function layoutTree(
  nodes: readonly MapNode[],
  dependencies: Iterable<MapDependency>,
  ghosts: readonly GhostChild[] = [],
): TreeLayout {
  const structure = buildTreeStructure(nodes);
  const ghostsOf = new Map<string, GhostChild[]>();
  for (const ghost of ghosts) ghostsOf.set(ghost.parentId, [...(ghostsOf.get(ghost.parentId) ?? []), ghost]);
  const toDatum = (node: MapNode): Datum => ({
    id: node.id,
    parentId: node.parentId,
    level: node.divergentLevel ?? null,
    ghost: false,
    children: [
      ...(structure.childrenOf.get(node.id) ?? []).map(toDatum),
      ...(ghostsOf.get(node.id) ?? []).map((g) => ({
        id: g.id,
        parentId: g.parentId,
        level: null,
        ghost: true,
        children: [],
      })),
    ],
  });
  const top: Datum = { id: null, parentId: null, level: null, ghost: false, children: structure.roots.map(toDatum) };
  const root = tree<Datum>()
    .nodeSize([NODE_HEIGHT + ROW_GAP, NODE_WIDTH + COLUMN_GAP])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(hierarchy(top, (d) => d.children));

  const placed: PlacedNode[] = [];
  const byId = new Map<string, PlacedNode>();
  for (const item of root.descendants()) {
    const { id, parentId, level, ghost } = item.data;
    if (id === null) continue;
    const depth = item.depth - 1;
    const place: PlacedNode = {
      id,
      parentId: item.parent?.data.id ?? (parentId && byId.has(parentId) ? parentId : null),
      level,
      ghost,
      depth,
      x: depth * (NODE_WIDTH + COLUMN_GAP),
      y: item.x - NODE_HEIGHT / 2,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
    };
    placed.push(place);
    byId.set(id, place);
  }
  const treeEdges: LaidOutEdge[] = [];
  for (const place of placed) {
    const parent = place.parentId ? byId.get(place.parentId) : undefined;
    if (parent)
      treeEdges.push({ id: `t-${place.id}`, from: parent.id, to: place.id, path: childEdgePath(parent, place) });
  }
  const columns = columnsOf(placed, COLUMN_GAP);
  const dependencyEdges: LaidOutEdge[] = [];
  for (const dep of dependencies) {
    const from = byId.get(dep.dependsOnId);
    const to = byId.get(dep.nodeId);
    if (from && to)
      dependencyEdges.push({
        id: `d-${dep.id}`,
        from: from.id,
        to: to.id,
        path: routeDependency(from, to, columns, dependencyEdges.length).path,
      });
  }
  return {
    placed,
    byId,
    treeEdges,
    dependencyEdges,
    levels: levelBands(placed),
    bounds: boundsOf(placed),
    route: (fromId, toId) => routeBetween(byId, columns, fromId, toId),
  };
}

function routeBetween(byId: Map<string, PlacedNode>, columns: Columns, fromId: string, toId: string): Route | null {
  const from = byId.get(fromId);
  const to = byId.get(toId);
  return from && to ? routeDependency(from, to, columns, 3) : null;
}

function childEdgePath(parent: PlacedNode, child: PlacedNode): string {
  const x1 = parent.x + NODE_WIDTH;
  const y1 = parent.y + NODE_HEIGHT / 2;
  const x2 = child.x;
  const y2 = child.y + NODE_HEIGHT / 2;
  const mid = (x1 + x2) / 2;
  return `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
}

function levelBands(placed: PlacedNode[]): LevelBand[] {
  const byLevel = new Map<number, PlacedNode[]>();
  for (const place of placed) {
    if (place.level === null) continue;
    byLevel.set(place.level, [...(byLevel.get(place.level) ?? []), place]);
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

/** The smallest box around every placed card. */
export function boundsOf(placed: readonly { x: number; y: number }[]): TreeLayout['bounds'] {
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

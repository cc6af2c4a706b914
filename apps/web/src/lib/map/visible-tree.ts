import { treeOrder } from '@thinkingmap/map-graph';
import type { MapNode } from '../api/results.ts';
import { siblingOrder } from './tree-structure.ts';

/** A node as the tree shows it: its depth, how many children it has, and its place among its siblings. */
export interface TreeRow {
  node: MapNode;
  depth: number;
  /** Direct children (shown or folded away). */
  childCount: number;
  /** 1-based place among its siblings, and how many siblings there are (ARIA's posinset and setsize). */
  posinset: number;
  setsize: number;
}

/** The part of the tree that is shown when some branches are folded. */
export interface VisibleTree {
  /** Shown nodes in reading order (each parent, then its children in the person's sibling order). */
  rows: TreeRow[];
  /** For each folded node, how many nodes its fold hides. */
  hiddenBelow: Map<string, number>;
}

/**
 * What the canvas and the outline show: every node whose ancestors are all unfolded, in map-graph's tree order,
 * with what each needs for the fold toggle and the tree's accessibility (children, place among siblings).
 */
export function visibleTree(nodes: readonly MapNode[], folded: ReadonlySet<string>): VisibleTree {
  const ordered = treeOrder(nodes, siblingOrder);
  const present = new Set(nodes.map((node) => node.id));
  const parentOf = (node: MapNode) => (node.parentId !== null && present.has(node.parentId) ? node.parentId : null);
  const children = new Map<string | null, number>();
  for (const { node } of ordered) children.set(parentOf(node), (children.get(parentOf(node)) ?? 0) + 1);
  // Subtree sizes, children before parents (reverse reading order).
  const size = new Map<string, number>();
  for (let i = ordered.length - 1; i >= 0; i--) {
    const { node } = ordered[i]!;
    const own = (size.get(node.id) ?? 0) + 1;
    size.set(node.id, own);
    const parent = parentOf(node);
    if (parent) size.set(parent, (size.get(parent) ?? 0) + own);
  }
  const rows: TreeRow[] = [];
  const hiddenBelow = new Map<string, number>();
  const hidden = new Set<string>();
  const seen = new Map<string | null, number>();
  for (const { node, depth } of ordered) {
    const parent = parentOf(node);
    const posinset = (seen.get(parent) ?? 0) + 1;
    seen.set(parent, posinset);
    if (parent && (hidden.has(parent) || folded.has(parent))) {
      hidden.add(node.id);
      continue;
    }
    const childCount = children.get(node.id) ?? 0;
    if (childCount && folded.has(node.id)) hiddenBelow.set(node.id, size.get(node.id)! - 1);
    rows.push({ node, depth, childCount, posinset, setsize: children.get(parent) ?? 1 });
  }
  return { rows, hiddenBelow };
}

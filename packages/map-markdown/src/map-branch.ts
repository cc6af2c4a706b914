import { subtreeIds } from '@thinkingmap/map-graph';
import type { MarkdownMap } from './markdown-map.ts';

/**
 * One branch of a map as a map of its own, for exporting or copying part of a tree: the node at `nodeId` is
 * its root (and its title), with every node below it; dependencies on nodes outside the branch are left out,
 * as are the map-wide problem, questions and runs. Returns null when the node is not in the map.
 */
export function mapBranch(map: MarkdownMap, nodeId: string): MarkdownMap | null {
  const root = map.nodes.find((node) => node.id === nodeId);
  if (!root) return null;
  const inside = new Set(subtreeIds(map.nodes, nodeId));
  const nodes = map.nodes
    .filter((node) => inside.has(node.id))
    .map((node) => ({
      ...node,
      parentId: node.id === nodeId ? null : node.parentId,
      dependsOn: node.dependsOn?.filter((id) => inside.has(id)),
    }));
  return { id: map.id, title: root.question, language: map.language, status: map.status, nodes };
}

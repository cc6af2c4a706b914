import type { DependencyRecord, NodeRecord } from '../api/types.ts';

/** The nodes `nodeId` still waits for: its dependencies that are not concluded yet. */
export function openDependencies(
  nodeId: string,
  nodes: Record<string, NodeRecord>,
  dependencies: Iterable<DependencyRecord>,
): NodeRecord[] {
  const open: NodeRecord[] = [];
  for (const dep of dependencies) {
    if (dep.nodeId !== nodeId) continue;
    const target = nodes[dep.dependsOnId];
    if (target && target.status !== 'COMPLETED') open.push(target);
  }
  return open;
}

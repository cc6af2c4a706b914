/** A dependency edge: `nodeId` depends on `dependsOnId` (it needs that node's conclusion first). */
export interface DependencyEdge {
  nodeId: string;
  dependsOnId: string;
}

function adjacency(edges: readonly DependencyEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const list = next.get(edge.nodeId);
    if (list) list.push(edge.dependsOnId);
    else next.set(edge.nodeId, [edge.dependsOnId]);
  }
  return next;
}

/**
 * The path a new edge `nodeId → dependsOnId` would close into a cycle, or null when it keeps the graph
 * acyclic. The path starts and ends at `nodeId`: `[a, b, c, a]` reads "a depends on b, b on c, c on a".
 * Iterative, so a cycle thousands of nodes long cannot overflow the stack.
 */
export function findCycle(edges: readonly DependencyEdge[], candidate: DependencyEdge): string[] | null {
  if (candidate.nodeId === candidate.dependsOnId) return [candidate.nodeId, candidate.nodeId];
  const next = adjacency(edges);
  // Search from dependsOnId for a path back to nodeId.
  const cameFrom = new Map<string, string>();
  const stack = [candidate.dependsOnId];
  const seen = new Set(stack);
  while (stack.length) {
    const current = stack.pop()!;
    if (current === candidate.nodeId) {
      const path = [current];
      let step = current;
      while (step !== candidate.dependsOnId) {
        step = cameFrom.get(step)!;
        path.push(step);
      }
      path.reverse(); // dependsOnId … nodeId
      return [candidate.nodeId, ...path];
    }
    for (const target of next.get(current) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      cameFrom.set(target, current);
      stack.push(target);
    }
  }
  return null;
}

/**
 * Orders `nodeIds` so that every node comes after the nodes it depends on (Kahn's algorithm). Ties keep
 * the input order, so siblings stay in their sibling order. Edges to nodes outside `nodeIds` are ignored.
 * Throws if the edges contain a cycle (the command layer never lets one in).
 */
export function topologicalOrder(nodeIds: readonly string[], edges: readonly DependencyEdge[]): string[] {
  const index = new Map(nodeIds.map((id, i) => [id, i]));
  const indegree = new Map(nodeIds.map((id) => [id, 0]));
  const dependents = new Map<string, string[]>();
  for (const { nodeId, dependsOnId } of edges) {
    if (!index.has(nodeId) || !index.has(dependsOnId)) continue;
    indegree.set(nodeId, (indegree.get(nodeId) ?? 0) + 1);
    const list = dependents.get(dependsOnId);
    if (list) list.push(nodeId);
    else dependents.set(dependsOnId, [nodeId]);
  }
  const ready = nodeIds.filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  // `ready` is kept sorted by input index; a binary insert keeps this O(n log n) for large maps.
  const insert = (id: string) => {
    const at = index.get(id)!;
    let lo = 0;
    let hi = ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (index.get(ready[mid]!)! < at) lo = mid + 1;
      else hi = mid;
    }
    ready.splice(lo, 0, id);
  };
  while (ready.length) {
    const id = ready.shift()!;
    order.push(id);
    for (const dependent of dependents.get(id) ?? []) {
      const left = indegree.get(dependent)! - 1;
      indegree.set(dependent, left);
      if (left === 0) insert(dependent);
    }
  }
  if (order.length !== nodeIds.length) throw new Error('dependency graph contains a cycle');
  return order;
}

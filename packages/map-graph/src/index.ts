export { type DependencyEdge, findCycle, topologicalOrder } from './dependency-graph.ts';
export { type Readiness, type ReadinessNode, readiness } from './readiness.ts';
export { isInSubtree, subtreeIds, type TreeNode } from './tree.ts';

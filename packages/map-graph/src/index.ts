export { type DependencyEdge, findCycle, topologicalOrder } from './dependency-graph.ts';
export { type Progress, type ProgressNode, progressOf } from './progress.ts';
export { type Readiness, type ReadinessNode, readiness } from './readiness.ts';
export {
  ancestorIds,
  byPosition,
  childrenByParent,
  depthOf,
  isInSubtree,
  type PlacedTreeNode,
  type PositionedTreeNode,
  type SiblingOrder,
  subtreeIds,
  type TreeNode,
  treeOrder,
} from './tree.ts';

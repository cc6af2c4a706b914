import { type EdgeLabel, Graph, type GraphLabel, layout, type NodeLabel } from '@dagrejs/dagre';
import type { AGENT_GRAPHS, ResultOf, RUN_PATH } from '@thinkingmap/client';

export type AgentGraph = ResultOf<typeof AGENT_GRAPHS>['agentGraphs'][number];
export type RunPath = Extract<ResultOf<typeof RUN_PATH>['runPath'], { __typename: 'RunPath' }>;
export type PathStep = RunPath['steps'][number];

/** LangGraph's names of a graph's start and end. */
export const START = '__start__';
export const END = '__end__';

/** A step of the graph placed on the drawing, with what the run did there. */
export interface LaidNode {
  id: string;
  kind: AgentGraph['nodes'][number]['kind'];
  label: string;
  /** Centre and size, in drawing units. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The run's visits to it, as positions in its path (1-based, the numbers the step list shows). */
  visits: number[];
  /** Outcome of its last visit: done, failed, interrupted, running (entered, not left); null when not reached. */
  outcome: string | null;
  current: boolean;
}

/** One time the run went along an edge: from its step number `from` to `to`, into `round` of the target. */
export interface Traversal {
  to: number;
  round: number;
}

/** An edge placed on the drawing, with the times the run went along it. */
export interface LaidEdge {
  key: string;
  source: string;
  target: string;
  /** The branch label of a conditional edge (its key in the graph's path map), else null. */
  branch: string | null;
  points: { x: number; y: number }[];
  /** Where its label sits (dagre keeps room for it). */
  labelAt: { x: number; y: number } | null;
  traversals: Traversal[];
  /** Whether going along it re-enters a step already visited (a loop's next round). */
  loops: boolean;
}

export interface RunGraphLayout {
  width: number;
  height: number;
  nodes: LaidNode[];
  edges: LaidEdge[];
}

const NODE_HEIGHT = 52;
const TERMINAL = 28;

/** A label's width in drawing units: wide characters (Chinese) take about twice a latin letter. */
export function textWidth(text: string, size = 13): number {
  let width = 0;
  for (const char of text) width += char.codePointAt(0)! > 0x2e80 ? size : size * 0.56;
  return width;
}

/** A graph laid out once (per graph and language): where each step and edge sits. */
export interface GraphDrawing {
  graph: AgentGraph;
  width: number;
  height: number;
  nodes: Omit<LaidNode, 'visits' | 'outcome' | 'current'>[];
  edges: Omit<LaidEdge, 'traversals' | 'loops'>[];
}

const edgeKey = (e: AgentGraph['edges'][number]) => `${e.source}->${e.target}:${e.label ?? ''}`;

/**
 * Lays a graph out with dagre (top to bottom, loops drawn back up), with room for each step's words
 * (`labelOf`) and each branch's (`branchOf`). Depends only on the graph and the language: a run moving on
 * redraws nothing of it.
 */
export function layoutGraph(
  graph: AgentGraph,
  labelOf: (step: string) => string,
  branchOf: (label: string) => string | null,
): GraphDrawing {
  const g = new Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 46, edgesep: 18, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) {
    const terminal = node.kind === 'START' || node.kind === 'END';
    const label = labelOf(node.id);
    const width = terminal ? Math.max(TERMINAL * 2, textWidth(label) + 24) : Math.min(300, textWidth(label) + 36);
    g.setNode(node.id, { width, height: terminal ? TERMINAL : NODE_HEIGHT });
  }
  for (const edge of graph.edges) {
    const branch = edge.label ? branchOf(edge.label) : null;
    g.setEdge(
      edge.source,
      edge.target,
      branch ? { width: textWidth(branch, 11) + 16, height: 18, labelpos: 'c' } : {},
      edgeKey(edge),
    );
  }
  layout(g);
  const nodes = graph.nodes.map((node) => {
    const placed = g.node(node.id);
    return {
      id: node.id,
      kind: node.kind,
      label: labelOf(node.id),
      x: placed.x ?? 0,
      y: placed.y ?? 0,
      width: placed.width,
      height: placed.height,
    };
  });
  const edges = graph.edges.map((edge) => {
    const key = edgeKey(edge);
    const placed = g.edge({ v: edge.source, w: edge.target, name: key });
    const branch = edge.label ? branchOf(edge.label) : null;
    return {
      key,
      source: edge.source,
      target: edge.target,
      branch,
      points: placed.points ?? [],
      labelAt: branch && placed.x !== undefined && placed.y !== undefined ? { x: placed.x, y: placed.y } : null,
    };
  });
  const { width = 0, height = 0 } = g.graph();
  return { graph, width, height, nodes, edges };
}

/**
 * Puts a run's path on a laid-out graph: which steps it visited and in which order (the step numbers of its
 * list), the outcome of each, the one it is in now, and each edge it went along with the step numbers and
 * rounds it led to (a loop's edge leads into round 2).
 */
export function placeRun(drawing: GraphDrawing, path: Pick<RunPath, 'steps' | 'current'> | null): RunGraphLayout {
  const { graph } = drawing;
  const steps = path?.steps ?? [];
  const visits = new Map<string, number[]>();
  for (const [i, s] of steps.entries()) visits.set(s.step, [...(visits.get(s.step) ?? []), i + 1]);
  const finished = path !== null && path.current === null && steps.length > 0 && steps.at(-1)!.outcome === 'done';
  const hops: { source: string; target: string; traversal: Traversal }[] = steps.map((s, i) => ({
    source: i === 0 ? START : steps[i - 1]!.step,
    target: s.step,
    traversal: { to: i + 1, round: s.round },
  }));
  if (finished) hops.push({ source: steps.at(-1)!.step, target: END, traversal: { to: steps.length + 1, round: 1 } });

  const traversalsOf = new Map<string, Traversal[]>();
  for (const hop of hops) {
    // Where two edges join the same steps (two branches), the run's hop is drawn on the first.
    const edge = graph.edges.find((e) => e.source === hop.source && e.target === hop.target);
    if (!edge) continue;
    const key = edgeKey(edge);
    traversalsOf.set(key, [...(traversalsOf.get(key) ?? []), hop.traversal]);
  }
  const outcomeOf = (id: string, last: PathStep | undefined): string | null => {
    if (id === START) return steps.length ? 'done' : null;
    if (id === END) return finished ? 'done' : null;
    return last ? (last.outcome ?? 'running') : null;
  };
  const nodes = drawing.nodes.map((node): LaidNode => {
    const seen = visits.get(node.id) ?? [];
    const last = seen.length ? steps[seen.at(-1)! - 1] : undefined;
    return {
      ...node,
      visits: seen,
      outcome: outcomeOf(node.id, last),
      current: path?.current === node.id && last !== undefined && last === steps.at(-1),
    };
  });
  const edges = drawing.edges.map((edge): LaidEdge => {
    const traversals = traversalsOf.get(edge.key) ?? [];
    return { ...edge, traversals, loops: traversals.some((t) => t.round > 1) };
  });
  return { width: drawing.width, height: drawing.height, nodes, edges };
}

/** {@link layoutGraph} then {@link placeRun}. */
export function layoutRunGraph(
  graph: AgentGraph,
  path: Pick<RunPath, 'steps' | 'current'> | null,
  labelOf: (step: string) => string,
  branchOf: (label: string) => string | null,
): RunGraphLayout {
  return placeRun(layoutGraph(graph, labelOf, branchOf), path);
}

/** An SVG path through an edge's points, smoothed with quadratic curves through the midpoints. */
export function edgePath(points: readonly { x: number; y: number }[]): string {
  if (points.length === 0) return '';
  const [first, ...rest] = points;
  if (rest.length === 0) return `M${first!.x},${first!.y}`;
  let d = `M${first!.x},${first!.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const p = rest[i]!;
    const next = rest[i + 1]!;
    d += ` Q${p.x},${p.y} ${(p.x + next.x) / 2},${(p.y + next.y) / 2}`;
  }
  const end = rest.at(-1)!;
  return `${d} L${end.x},${end.y}`;
}

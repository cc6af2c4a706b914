import { END, START } from '@langchain/langgraph';
import { StepKind } from '../shared/step-kind.ts';

/** What a drawn node is: a step of one of the {@link StepKind}s, or the graph's start or end. */
export const TopologyNodeKind = { ...StepKind, START: 'START', END: 'END' } as const;
export type TopologyNodeKind = (typeof TopologyNodeKind)[keyof typeof TopologyNodeKind];

/** A node of a drawn graph; `id` is the step name the run's AgentStep events carry. */
export interface TopologyNode {
  id: string;
  kind: TopologyNodeKind;
  /** Whether the run can pause here for the person (the step calls `interrupt()`, or the graph interrupts around it). */
  interrupt: boolean;
}

/** An edge of a drawn graph; a conditional edge carries its branch label (the key of its path map). */
export interface TopologyEdge {
  source: string;
  target: string;
  conditional: boolean;
  label: string | null;
}

/** A graph as data: what the web draws and a run's path is laid on. */
export interface GraphTopology {
  name: string;
  nodes: TopologyNode[];
  edges: TopologyEdge[];
  /** The ids of the nodes where a run can pause for the person. */
  interruptPoints: string[];
}

/** The part of a compiled LangGraph graph the drawing is read from. */
export interface Drawable {
  getGraphAsync(): Promise<{
    nodes: Record<string, { id: string; metadata?: Record<string, unknown> }>;
    edges: { source: string; target: string; data?: unknown; conditional?: boolean }[];
  }>;
}

function kindOf(id: string, metadata: Record<string, unknown> | undefined): TopologyNodeKind {
  if (id === START) return TopologyNodeKind.START;
  if (id === END) return TopologyNodeKind.END;
  const kind = metadata?.kind;
  const known = Object.values(StepKind).find((stepKind) => stepKind === kind);
  if (known) return known;
  throw new Error(`step ${id} was added without its kind (stepKind metadata)`);
}

/**
 * Reads a compiled graph's topology from LangGraph's drawable graph: its nodes with the kind declared where
 * each was added, its edges, the branch labels of its conditional edges and where it pauses for the person.
 * Nothing is drawn by hand, so the picture cannot drift from the graph that runs.
 */
export async function describeGraph(name: string, compiled: Drawable): Promise<GraphTopology> {
  const drawn = await compiled.getGraphAsync();
  const nodes = Object.values(drawn.nodes).map((node): TopologyNode => {
    const kind = kindOf(node.id, node.metadata);
    return { id: node.id, kind, interrupt: kind === StepKind.HUMAN || Boolean(node.metadata?.__interrupt) };
  });
  const edges = drawn.edges.map(
    (edge): TopologyEdge => ({
      source: edge.source,
      target: edge.target,
      conditional: Boolean(edge.conditional),
      // LangGraph keeps a label only where it differs from the target's name.
      label: edge.conditional ? (typeof edge.data === 'string' ? edge.data : edge.target) : null,
    }),
  );
  return { name, nodes, edges, interruptPoints: nodes.filter((n) => n.interrupt).map((n) => n.id) };
}

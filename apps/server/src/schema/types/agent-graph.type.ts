import {
  agentGraphTopologies,
  type GraphTopology,
  type TopologyEdge,
  type TopologyNode,
  TopologyNodeKind,
} from '@thinkingmap/agent-core';
import { builder } from '../builder.ts';

const GraphNodeKindEnum = builder.enumType(TopologyNodeKind, {
  name: 'GraphNodeKind',
  description: 'AGENT: the model decides; TOOL: plain code or a tool call; HUMAN: waits for the person; START, END.',
});

const GraphNodeRef = builder.objectRef<TopologyNode>('AgentGraphNode').implement({
  description: "A step of an agent graph; `id` is the step name its runs' AgentStep events carry.",
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: GraphNodeKindEnum }),
    interrupt: t.exposeBoolean('interrupt', { description: 'Whether a run can pause here for the person.' }),
  }),
});

const GraphEdgeRef = builder.objectRef<TopologyEdge>('AgentGraphEdge').implement({
  description: 'An edge of an agent graph; a conditional edge carries the label of its branch.',
  fields: (t) => ({
    source: t.exposeID('source'),
    target: t.exposeID('target'),
    conditional: t.exposeBoolean('conditional'),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const AgentGraphRef = builder.objectRef<GraphTopology>('AgentGraph').implement({
  description: 'The topology of an agent graph, read from the compiled LangGraph graph (never drawn by hand).',
  fields: (t) => ({
    name: t.exposeID('name', { description: 'The graph, as runs name it in `AgentRun.agent`.' }),
    nodes: t.field({ type: [GraphNodeRef], resolve: (graph) => graph.nodes }),
    edges: t.field({ type: [GraphEdgeRef], resolve: (graph) => graph.edges }),
    interruptPoints: t.exposeIDList('interruptPoints', {
      description: 'The steps where a run pauses for the person.',
    }),
  }),
});

/** Built once: the graphs do not change while the server runs. */
let topologies: Promise<GraphTopology[]> | undefined;

builder.queryField('agentGraphs', (t) =>
  t.field({
    type: [AgentGraphRef],
    description: "Every agent graph's topology: steps with their kind, edges, branch labels and interrupt points.",
    resolve: () => {
      topologies ??= agentGraphTopologies();
      return topologies;
    },
  }),
);

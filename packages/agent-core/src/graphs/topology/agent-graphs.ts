import type { ConsultationDeps } from '../consultation/consultation-deps.ts';
import { CONSULTATION_GRAPH, createConsultationGraph } from '../consultation/graph.ts';
import type { CriticDeps } from '../critic/critic-deps.ts';
import { CRITIC_GRAPH } from '../critic/critic-graph-name.ts';
import { createCriticGraph } from '../critic/graph.ts';
import type { DivergentDeps } from '../divergent/divergent-deps.ts';
import { DIVERGENT_GRAPH } from '../divergent/divergent-graph-name.ts';
import { createDivergentGraph } from '../divergent/graph.ts';
import { createProcessNodeGraph } from '../process-node/graph.ts';
import { PROCESS_NODE_GRAPH } from '../process-node/process-node-graph-name.ts';
import { createUnderstandProblemGraph } from '../understand-problem/graph.ts';
import { UNDERSTAND_PROBLEM_GRAPH } from '../understand-problem/understand-problem-graph-name.ts';
import { describeGraph, type GraphTopology } from './describe-graph.ts';

/** Ports a graph reads while it is built, each optional: left out, the graph takes its default. */
const OPTIONAL_PORTS = new Set([
  'knowledge',
  'maxQuestions',
  'maxExplorations',
  'maxPlannerCalls',
  'compressAfterTurns',
  'stream',
]);

/** Ports of a graph built only to be drawn: building never calls them, and running it would fail loudly. */
const DRAWING_ONLY = new Proxy({} as CriticDeps & DivergentDeps & ConsultationDeps, {
  get(_target, port) {
    if (OPTIONAL_PORTS.has(String(port))) return undefined;
    return new Proxy(
      {},
      {
        get() {
          throw new Error(`a graph built to be drawn does not run (port ${String(port)})`);
        },
      },
    );
  },
});

/** Every agent graph, by the name its runs and AgentStep events carry, and how to build it. */
export const AGENT_GRAPHS = {
  [UNDERSTAND_PROBLEM_GRAPH]: createUnderstandProblemGraph,
  [PROCESS_NODE_GRAPH]: createProcessNodeGraph,
  [CRITIC_GRAPH]: createCriticGraph,
  [DIVERGENT_GRAPH]: createDivergentGraph,
  [CONSULTATION_GRAPH]: createConsultationGraph,
} as const;

/** The topology of every agent graph, read from the compiled graphs. */
export async function agentGraphTopologies(): Promise<GraphTopology[]> {
  return Promise.all(Object.entries(AGENT_GRAPHS).map(([name, create]) => describeGraph(name, create(DRAWING_ONLY))));
}

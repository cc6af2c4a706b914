import { AgentGraph } from '../../domain/enums.ts';

/** The graph's name in events and run records. */
export const UNDERSTAND_PROBLEM_GRAPH = AgentGraph.UNDERSTAND_PROBLEM;

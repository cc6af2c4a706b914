import { AgentGraph } from '../../domain/enums.ts';

/** The graph's name in events and run records. */
export const CRITIC_GRAPH = AgentGraph.CRITIC;

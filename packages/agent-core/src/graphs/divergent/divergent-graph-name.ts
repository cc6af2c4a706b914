import { AgentGraph } from '../../domain/enums.ts';

/** The graph's name in events and run records. */
export const DIVERGENT_GRAPH = AgentGraph.DIVERGENT;

import { AgentGraph } from '../../domain/enums.ts';

/** The node processing graph's name in events and run records. */
export const PROCESS_NODE_GRAPH = AgentGraph.PROCESS_NODE;

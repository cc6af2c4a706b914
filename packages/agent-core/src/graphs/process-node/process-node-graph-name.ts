/** The node processing graph's name in events and run records. */
export const PROCESS_NODE_GRAPH = 'process-node';

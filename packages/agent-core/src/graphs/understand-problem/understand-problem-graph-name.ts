/** The graph's name in events and run records. */
export const UNDERSTAND_PROBLEM_GRAPH = 'understand-problem';

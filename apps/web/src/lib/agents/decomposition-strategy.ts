/** How the agent splits a question (the API's DecompositionStrategy), in the order the UI offers them. */
export const DECOMPOSITION_STRATEGIES = ['SEQUENTIAL', 'PARALLEL', 'HIERARCHICAL', 'EXPLORATORY'] as const;

/** One of {@link DECOMPOSITION_STRATEGIES}. */
export type DecompositionStrategy = (typeof DECOMPOSITION_STRATEGIES)[number];

import { DecompositionStrategy } from '@thinkingmap/db/enums';

/** How the agent splits a question (the API's DecompositionStrategy), in the order the UI offers them. */
export const DECOMPOSITION_STRATEGIES = Object.values(DecompositionStrategy);

export type { DecompositionStrategy };

import type { DECISION_FIELDS, ResultOf } from '@thinkingmap/client';

/** A decision of a run as the API's DecisionFields fragment returns it (node panel, run view). */
export type DecisionFields = ResultOf<typeof DECISION_FIELDS>;

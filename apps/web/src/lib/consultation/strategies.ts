import { ConsultationRecordKind, ConsultationStrategy } from '@thinkingmap/db/enums';

/** The strategies, in the order the start form offers them (the first, INTERRUPT, is the API's default). */
export const STRATEGIES = Object.values(ConsultationStrategy);

/** Record kinds, in the order the records are grouped: fact, requirement, decision, open question. */
export const RECORD_KINDS = Object.values(ConsultationRecordKind);

export type { ConsultationRecordKind, ConsultationStrategy };

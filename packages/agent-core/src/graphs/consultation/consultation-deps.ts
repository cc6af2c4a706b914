import type { ConsultationStorePort, ConsultationStreamPort, NotesPort } from '../../ports/consultation-store-port.ts';
import type { ModelPort } from '../../ports/model-port.ts';

/** What the consultation graph talks through, and its bounds. */
export interface ConsultationDeps {
  model: ModelPort;
  store: ConsultationStorePort;
  notes: NotesPort;
  /** Receives the front agent's reply as it is written (optional). */
  stream?: ConsultationStreamPort;
  /** After this many turns (a person's message and its answer) beyond the summary, earlier ones are summarised. */
  compressAfterTurns?: number;
  /** Planner calls one turn may make before it finishes (default 6). */
  maxPlannerCalls?: number;
}

/** The defaults of {@link ConsultationDeps}' bounds. */
export const CONSULTATION_LIMITS = {
  compressAfterTurns: 6,
  maxPlannerCalls: 6,
  /** Characters of one message a prompt shows (its start and end). */
  promptMessageChars: 2000,
  /** Characters of the summary a prompt shows. */
  promptSummaryChars: 4000,
  /** Messages kept verbatim when earlier ones are summarised. */
  keepRecentMessages: 2,
  /** Records kept earlier the planner's prompt lists (the most recent), and the characters of each. */
  promptRecords: 20,
  promptRecordChars: 200,
  /** Note paths the planner's prompt lists (the most recently written). */
  promptNotes: 20,
} as const;

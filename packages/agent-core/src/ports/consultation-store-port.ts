import type {
  ConsultationMessageRole,
  ConsultationRecordKind,
  ConsultationStrategy,
  Language,
} from '../domain/enums.ts';
import type { SubQuestionProposal } from '../schemas/sub-question-proposal.ts';
import type { Idempotent } from './store-port.ts';

/** A message of a consultation the person sees (or the summary that replaced earlier ones in prompts). */
export interface ConsultationMessage {
  id: string;
  role: ConsultationMessageRole;
  text: string;
  /**
   * For the front agent's reply: the person's message it answers (and every one of theirs before it). A message
   * sent while a turn runs is stored before that turn's reply, so the order alone cannot say what a reply answers.
   * Absent on the person's messages, on the planner's questions, and on replies stored before replies said it.
   */
  answersId?: string | null;
}

/** A structured record the planner decided to keep (a row in the product's database). */
export interface ConsultationRecordDraft {
  kind: ConsultationRecordKind;
  content: string;
  /** The person's message it was drawn from, when the planner named one of the conversation. */
  sourceMessageId: string | null;
}

/** A record already kept, as the planner's prompt shows it (so a later turn does not record it again). */
export type ConsultationRecordSummary = Pick<ConsultationRecordDraft, 'kind' | 'content'>;

/** A Markdown note the planner decided to write; `path` is relative to the map's notes folder. */
export interface ConsultationNoteDraft {
  path: string;
  content: string;
}

/** Sub-questions the planner proposes for one of the map's nodes (reviewed by the person like a decomposition). */
export interface ConsultationProposalDraft extends SubQuestionProposal {
  nodeId: string;
}

/** A node of the consultation's map, as the planner sees it. */
export interface ConsultationMapNode {
  id: string;
  question: string;
  parentId: string | null;
}

/** The planner's plan: its steps, where it stands, and the short facts it keeps about the case. */
export interface ConsultationPlan {
  plan: string[];
  currentStep: number;
  context: Record<string, string>;
}

/** What a turn starts from: everything the graph needs of a consultation, read through the store. */
export interface ConsultationSnapshot extends ConsultationPlan {
  consultationId: string;
  language: Language;
  /**
   * What a message sent during a turn does: with ENQUEUE each of the person's messages gets its own reply, in
   * order; with INTERRUPT (or REJECT) one reply answers the latest, the earlier ones in view.
   */
  strategy: ConsultationStrategy;
  /** The summary of messages compressed out of the prompts ('' when none). */
  summary: string;
  /** The messages after the summary, oldest first. */
  messages: ConsultationMessage[];
  /** The person's messages the planner has not handled yet (a turn interrupted, queued or cut by a restart). */
  unplanned: string[];
  /** The map's nodes the planner may propose sub-questions for (bounded; [] when none). */
  nodes?: ConsultationMapNode[];
  /**
   * The records kept so far, oldest first: at least the `CONSULTATION_LIMITS.promptRecords` most recent (the
   * planner's prompt shows no more).
   */
  records: ConsultationRecordSummary[];
  /** The paths of the notes written so far, at least the `CONSULTATION_LIMITS.promptNotes` most recently written. */
  notes: string[];
}

/**
 * Where a consultation lives (the server implements it over its command layer, each write an event; tests
 * use an in-memory one). agent-core knows no Prisma: records are written here, notes through
 * {@link NotesPort}. A turn is never replayed from a checkpoint: a turn cut short is planned again from its
 * unplanned messages, and what it wrote before is in the snapshot. Records and notes carry an idempotency key
 * (from the consultation, the source message and the content): planning a message again writes neither twice.
 */
export interface ConsultationStorePort {
  /** The consultation as a turn starts from it. */
  load(consultationId: string): Promise<ConsultationSnapshot>;
  /** Stores a message the person sees; the answer carries its id. */
  appendMessage(consultationId: string, message: Omit<ConsultationMessage, 'id'>): Promise<ConsultationMessage>;
  /** The planner handled these messages of the person. */
  markPlanned(consultationId: string, messageIds: string[]): Promise<void>;
  /** The plan changed (the person sees it as a plan update). */
  savePlan(consultationId: string, plan: ConsultationPlan): Promise<void>;
  /** A line of progress the person sees. */
  log(consultationId: string, text: string): Promise<void>;
  /**
   * Stores a record; returns its id, and `written: true`. A key already used writes nothing and returns the id of
   * the record written with it, and `written: false` (a turn run again replays it: it is already kept).
   */
  writeRecord(
    consultationId: string,
    record: ConsultationRecordDraft,
    options?: Idempotent,
  ): Promise<{ id: string; written: boolean }>;
  /** Earlier messages were summarised: `summary` replaces `messageIds` in prompts (the messages are kept). */
  compress(consultationId: string, summary: string, messageIds: string[]): Promise<void>;
  /**
   * Sends sub-questions for a node to the person's decomposition review; returns the run that waits there.
   * An unknown or busy node is refused with `AgentError('INVALID_INPUT')` (nothing is proposed).
   */
  propose(consultationId: string, proposal: ConsultationProposalDraft): Promise<{ runId: string }>;
}

/**
 * Where notes are written: Markdown files under the map's notes folder. The implementation refuses paths
 * that leave the folder (traversal, absolute paths, symbolic links) with `AgentError('INVALID_INPUT')`.
 */
export interface NotesPort {
  /**
   * Writes a note; returns its normalised path, and `written: true`. A key already used writes nothing and returns
   * the same path, and `written: false`.
   */
  write(
    consultationId: string,
    note: ConsultationNoteDraft,
    options?: Idempotent,
  ): Promise<{ path: string; written: boolean }>;
}

/** What the person sees while a turn runs and before anything is stored: the front agent's reply as it grows. */
export interface ConsultationStreamPort {
  replyStreamed(consultationId: string, text: string): void;
}

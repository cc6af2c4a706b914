import { Annotation } from '@langchain/langgraph';
import type { ConsultationStrategy, Language } from '../../domain/enums.ts';
import type {
  ConsultationMapNode,
  ConsultationMessage,
  ConsultationNoteDraft,
  ConsultationProposalDraft,
  ConsultationRecordDraft,
  ConsultationRecordSummary,
} from '../../ports/consultation-store-port.ts';
import type { FrontRoute, PlannerNext } from '../../schemas/consultation.ts';
import type { TurnFailure } from './turn-failure.ts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

/** State of one consultation turn (design 003's `AgentState`). A turn starts from the store, not from a checkpoint. */
export const ConsultationState = Annotation.Root({
  /** The consultation (input; design 003's `session_id`). */
  consultationId: last<string>(() => ''),
  /** The language prompts and offline answers use; read from the store. */
  language: last<Language>(() => 'en'),
  /** What a message sent during a turn does (read from the store): ENQUEUE answers each of the person's in turn. */
  strategy: last<ConsultationStrategy>(() => 'INTERRUPT'),
  /** The summary of earlier messages, shown in prompts instead of them ('' when nothing was compressed). */
  summary: last<string>(() => ''),
  /** Messages the person sees, after the summary, oldest first (design 003's `messages`). */
  messages: last<ConsultationMessage[]>(() => []),
  /** The person's messages the planner has not handled yet: the new requirement(s) of this turn. */
  unplanned: last<string[]>(() => []),
  /** What happened inside this turn, for the planner only (design 003's `inner_messages`). */
  innerMessages: Annotation<string[]>({ reducer: (all, next) => [...all, ...next], default: () => [] }),
  /** The planner's consultation steps and the one in progress. */
  plan: last<string[]>(() => []),
  currentStep: last<number>(() => 0),
  /** Short facts the planner keeps about the case, by key. */
  context: last<Record<string, string>>(() => ({})),
  /** Progress lines of this turn, as the person sees them (each is also stored). */
  logs: Annotation<string[]>({ reducer: (all, next) => [...all, ...next], default: () => [] }),
  /** Records and notes the planner decided to write and the writers have not written yet. */
  pendingRecords: last<ConsultationRecordDraft[]>(() => []),
  pendingNotes: last<ConsultationNoteDraft[]>(() => []),
  /** Sub-question proposals the planner decided on and the writer has not sent to review yet. */
  pendingProposals: last<ConsultationProposalDraft[]>(() => []),
  /** The records kept before this turn (the most recent, oldest first): the planner does not record them again. */
  records: last<ConsultationRecordSummary[]>(() => []),
  /** The paths of the notes written before this turn. */
  notes: last<string[]>(() => []),
  /** The map's nodes (what the planner may propose sub-questions for). */
  nodes: last<ConsultationMapNode[]>(() => []),
  /** The planner's question for the person, relayed by the front agent. */
  askUser: last<string | null>(() => null),
  /** Whether the front agent put the planner's question to the person in this turn (the turn ends there). */
  asked: last<boolean>(() => false),
  /**
   * How the front agent judged the person's message (work, chat, or the end). The planner does not wait for it:
   * it runs beside the reply and decides for itself (a chat-only message leaves it nothing to do but finish).
   */
  frontRoute: last<FrontRoute | null>(() => null),
  /** The planner's latest `next`. */
  plannerNext: last<PlannerNext | null>(() => null),
  /** Planner calls in this turn (bounded by the graph's options). */
  plannerCalls: last<number>(() => 0),
  /**
   * Why the planner failed, when it did: kept as a value, not thrown, so a failure beside the front agent's reply
   * does not abort the reply; the turn ends there and the conductor fails it with this.
   */
  plannerFailure: last<TurnFailure | null>(() => null),
});
/** @see ConsultationState */
export type ConsultationStateType = typeof ConsultationState.State;
/** @see ConsultationState */
export type ConsultationUpdate = typeof ConsultationState.Update;

import { Annotation } from '@langchain/langgraph';
import type { NodeContext } from '../../context/node-context.ts';
import type {
  ConclusionKind,
  ConversationKind,
  DecompositionStrategy,
  Language,
  NodeIntent,
} from '../../domain/enums.ts';
import type { KnowledgeResult } from '../../ports/knowledge-port.ts';
import type { ClarifyQuestion } from '../../schemas/clarify-question.ts';
import type { ConclusionDraft } from '../../schemas/conclusion-draft.ts';
import type { StrategyDecision } from '../../schemas/strategy-decision.ts';
import type { SubQuestionProposal } from '../../schemas/sub-question-proposal.ts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

/** Facts about the node that routing and the offline model need, copied from its context. */
export interface NodeFacts {
  mapId: string;
  question: string;
  goal: string;
  depth: number;
  childCount: number;
  concludedChildCount: number;
}

/**
 * State of the node processing graph. The thinking-tree node is data (`nodeId`), read and written through
 * the store port; nothing of the tree becomes a graph node, so checkpoints stay small.
 */
export const ProcessNodeState = Annotation.Root({
  /** The node processed (input). */
  nodeId: last<string>(() => ''),
  /** The person's choice of intent, overriding intent recognition once (input). */
  intentOverride: last<NodeIntent | null>(() => null),
  /** The person's choice of decomposition strategy, overriding the decision (input or review reply). */
  strategyOverride: last<DecompositionStrategy | null>(() => null),
  /** The person's choice of conclusion kind (input). */
  conclusionKind: last<ConclusionKind | null>(() => null),
  /**
   * Sub-questions proposed elsewhere (a consultation's planner), reviewed as the first proposal instead of
   * asking the decomposition agent (input; used once: a rejection asks the agent for another).
   */
  proposalOverride: last<SubQuestionProposal | null>(() => null),

  /** The map's language. */
  language: last<Language>(() => 'en'),
  /** The conversation where exploring and clarifying post (CONCLUDE once the node has children). */
  conversation: last<ConversationKind>(() => 'DECOMPOSE'),
  /** The node's context with both its conversations; each agent reads its own view (`contextFor`). */
  context: last<NodeContext | null>(() => null),
  facts: last<NodeFacts | null>(() => null),
  /** Why the node cannot proceed, when a dependency is open. */
  blockedReason: last<string | null>(() => null),

  /** The intent chosen, and why. */
  intent: last<NodeIntent | null>(() => null),
  intentReason: last<string | null>(() => null),
  /** The decomposition strategy chosen, with the factors weighed. */
  strategy: last<StrategyDecision | null>(() => null),
  /** The sub-questions under review; `proposalRound` counts proposals, `proposalFeedback` is the last rejection. */
  proposal: last<SubQuestionProposal | null>(() => null),
  proposalRound: last<number>(() => 0),
  proposalFeedback: last<string | null>(() => null),
  proposalApproved: last<boolean>(() => false),
  /** The sub-questions as the model last proposed them, before the person's edits (for the decisions). */
  proposedSubQuestions: last<SubQuestionProposal['subQuestions'] | null>(() => null),
  /** Ids of the nodes created from the approved proposal. */
  createdNodeIds: last<string[]>(() => []),

  /** The conclusion under review; `draftRound` counts drafts, `conclusionFeedback` is the last feedback. */
  draft: last<ConclusionDraft | null>(() => null),
  draftRound: last<number>(() => 0),
  conclusionFeedback: last<string | null>(() => null),
  conclusionAccepted: last<boolean>(() => false),
  /** The kind of conclusion the model drafted, before the person's choice of kind (for the decisions). */
  modelConclusionKind: last<ConclusionKind | null>(() => null),

  /** The open clarifying question and the message that asked it. */
  clarification: last<ClarifyQuestion | null>(() => null),
  questionMessageId: last<string | null>(() => null),
  clarifyAnswer: last<string | null>(() => null),
  /** True when the person skipped the clarifying question (null answer without expiry). */
  clarifySkipped: last<boolean>(() => false),
  /** Clarifying questions asked in this run (capped by `maxQuestions`). */
  questionsAsked: last<number>(() => 0),
  /** What the search before decomposing or concluding found, with the chosen tool's results first. */
  knowledgeResults: last<KnowledgeResult[]>(() => []),
  /** Keys of the retrieved passages this run posted (`knowledgeKey`): none is posted twice in a run. */
  knowledgePosted: last<string[]>(() => []),
  /** Snippets retrieved for the decompose or conclude agent, bounded, added to its prompt ('' when none). */
  knowledgeText: last<string>(() => ''),
  /** Knowledge searches made in this run (capped by `maxExplorations`). */
  explorations: last<number>(() => 0),

  /** How the run ended for the node. */
  outcome: last<'BLOCKED' | 'DECOMPOSED' | 'CONCLUDED' | null>(() => null),
});
/** @see ProcessNodeState */
export type ProcessNodeStateType = typeof ProcessNodeState.State;
/** @see ProcessNodeState */
export type ProcessNodeUpdate = typeof ProcessNodeState.Update;

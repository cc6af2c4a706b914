import type {
  EVENT_FIELDS,
  MAPS,
  NODE,
  PENDING_QUESTION_FIELDS,
  REVIEW_DECOMPOSITION,
  ResultOf,
  RUN_FIELDS,
  SchemaEnum,
  SuccessOf,
  VariablesOf,
  WORKSPACE_MAP,
  WORKSPACE_MAP_FIELDS,
  WORKSPACE_NODE_FIELDS,
} from '@thinkingmap/client';

// Names for the API results the workspace passes around, each read from a typed document of
// @thinkingmap/client (and so from apps/server/schema.graphql): nothing here is written by hand.

/** A node as the workspace draws it (WorkspaceNodeFields). */
export type MapNode = ResultOf<typeof WORKSPACE_NODE_FIELDS>;
/** A map's own fields (WorkspaceMapFields). */
export type MapFields = ResultOf<typeof WORKSPACE_MAP_FIELDS>;
/** A whole map as WORKSPACE_MAP returns it. */
export type MapSnapshot = SuccessOf<typeof WORKSPACE_MAP>;
/** `nodeId` waits for `dependsOnId`. */
export type MapDependency = MapSnapshot['dependencies'][number];
/** One line of the map list. */
export type MapSummary = ResultOf<typeof MAPS>['maps'][number];

/** A node with what its panel shows (NODE). */
export type NodeDetail = SuccessOf<typeof NODE>;
/** One of a node's two conversations. */
export type Conversation = NodeDetail['conversations'][number];
/** A conversation message. */
export type ConversationMessage = Conversation['messages'][number];
/** Context the person added to a node. */
export type ContextItem = NodeDetail['contextItems'][number];

/** An event of a map's log, as MAP_EVENTS delivers it. */
export type MapEvent = ResultOf<typeof EVENT_FIELDS>;
/** The events that carry agent activity (runs, steps, streamed text, questions). */
export type AgentEvent = Extract<
  MapEvent,
  {
    __typename:
      | 'RunStarted'
      | 'AgentStep'
      | 'AgentTokens'
      | 'AgentQuestion'
      | 'QuestionResolved'
      | 'RunFinished'
      | 'RunFailed'
      | 'RunWaitingForDependencies'
      | 'DecisionRecorded';
  }
>;

/** An agent run (RunFields). */
export type AgentRun = ResultOf<typeof RUN_FIELDS>;
/** A question a paused run waits on (PendingQuestionFields). */
export type PendingQuestion = ResultOf<typeof PENDING_QUESTION_FIELDS>;
/** A sub-question as reviewDecomposition takes it (and as the agent proposes it). */
export type SubQuestionInput = NonNullable<VariablesOf<typeof REVIEW_DECOMPOSITION>['input']['subQuestions']>[number];

/** A node's progress. */
export type NodeStatus = SchemaEnum<'NodeStatus'>;
/** Which of a node's two conversations. */
export type ConversationKind = SchemaEnum<'ConversationKind'>;
/** The kinds of conclusion a node can have. */
export type ConclusionKind = SchemaEnum<'ConclusionKind'>;
/** What an agent does with a node. */
export type NodeIntent = SchemaEnum<'NodeIntent'>;
/** How the agent splits a question. */
export type DecompositionStrategy = SchemaEnum<'DecompositionStrategy'>;
/** A map's mode; divergent maps place nodes on levels. */
export type MapMode = SchemaEnum<'MapMode'>;
/** Interface languages (and map languages). */
export type Language = SchemaEnum<'Language'>;

import { graphql } from './graphql.ts';

/** The fields of a node that the workspace and tests show. */
export const NODE_FIELDS = graphql(`
  fragment NodeFields on Node {
    id
    mapId
    parentId
    position
    question
    goal
    constraints
    type
    status
    intent
    strategy
    conclusion
    conclusionKind
    staleReason
    staleSourceId
    staleSourceQuestion
    staleSince
    version
    createdAt
    updatedAt
  }
`);

/** The node fields the web workspace draws: {@link NODE_FIELDS} plus divergent-mode placement and score. */
export const WORKSPACE_NODE_FIELDS = graphql(
  `
  fragment WorkspaceNodeFields on Node {
    ...NodeFields
    divergentLevel
    divergentRole
    completionScore
    concludedAt
  }
`,
  [NODE_FIELDS],
);

/** The map fields the web workspace shows and edits. */
export const WORKSPACE_MAP_FIELDS = graphql(`
  fragment WorkspaceMapFields on Map {
    id
    title
    problem
    goal
    constraints
    language
    mode
    status
    autoRun
    version
    lastSeq
  }
`);

/** A dependency: `nodeId` waits for `dependsOnId`. */
export const DEPENDENCY_FIELDS = graphql(`
  fragment DependencyFields on Dependency {
    id
    nodeId
    dependsOnId
  }
`);

/** Every typed error, with the details each carries. */
export const ERROR_FIELDS = graphql(`
  fragment ErrorFields on Error {
    __typename
    code
    message
    ... on ValidationError {
      field
      reason
    }
    ... on NotFoundError {
      entity
      id
    }
    ... on CycleError {
      path
      questions
    }
    ... on VersionConflictError {
      currentVersion
      expectedVersion
    }
    ... on ImportError {
      where
      reason
    }
  }
`);

/** An agent run as the API reports it (runs, and the result of every agent command). */
export const RUN_FIELDS = graphql(`
  fragment RunFields on AgentRun {
    id
    mapId
    nodeId
    agent
    status
    error
    errorCode
    raw
    promptTokens
    completionTokens
    tokensEstimated
    createdAt
    finishedAt
    forkedFromRunId
    forkedFromStep
    waitingFor {
      id
      question
    }
  }
`);

/** A decision of a run about a node, with why and who decided. */
export const DECISION_FIELDS = graphql(`
  fragment DecisionFields on Decision {
    id
    runId
    nodeId
    kind
    choice
    reason
    confidence
    decidedBy
    overridden
    createdAt
  }
`);

/** A question a paused run waits on; answered with replyToAgent or reviewDecomposition. */
export const PENDING_QUESTION_FIELDS = graphql(`
  fragment PendingQuestionFields on PendingQuestion {
    requestId
    runId
    mapId
    nodeId
    kind
    question
    context
    status
    answerable
    createdAt
    expiresAt
  }
`);

/** A conversation message as the workspace shows it. */
export const MESSAGE_FIELDS = graphql(`
  fragment MessageFields on Message {
    id
    conversationId
    parentId
    role
    kind
    content
    metadata
    createdAt
  }
`);

/** Context the person added to a node. */
export const CONTEXT_ITEM_FIELDS = graphql(`
  fragment ContextItemFields on ContextItem {
    id
    title
    content
    createdAt
  }
`);

/** Every event, with what each carries. */
export const EVENT_FIELDS = graphql(
  `
  fragment EventFields on MapEvent {
    __typename
    ... on SequencedEvent {
      mapId
      seq
      at
    }
    ... on NodeCreated {
      node {
        ...WorkspaceNodeFields
      }
    }
    ... on NodeUpdated {
      fields
      node {
        ...WorkspaceNodeFields
      }
    }
    ... on NodeConcluded {
      node {
        ...WorkspaceNodeFields
      }
    }
    ... on NodeStale {
      node {
        ...WorkspaceNodeFields
      }
    }
    ... on NodeDeleted {
      nodeIds
      dependencyIds
    }
    ... on DependencyAdded {
      nodeId
      dependsOnId
      dependency {
        ...DependencyFields
      }
    }
    ... on DependencyRemoved {
      nodeId
      dependsOnId
      dependency {
        ...DependencyFields
      }
    }
    ... on ContextUpdated {
      nodeId
      action
      item {
        ...ContextItemFields
      }
    }
    ... on MessagePosted {
      nodeId
      message {
        ...MessageFields
      }
    }
    ... on MessagesChanged {
      nodeId
      conversationId
      messages {
        ...MessageFields
        deletedAt
      }
    }
    ... on ConversationCleared {
      nodeId
      conversation
      clearedCount
    }
    ... on MapUpdated {
      fields
      map {
        ...WorkspaceMapFields
      }
    }
    ... on MapDeleted {
      deletedMapId
    }
    ... on RunStarted {
      runId
      nodeId
      run {
        agent
        status
        forkedFromStep
      }
    }
    ... on AgentStep {
      runId
      graph
      nodeId
      step
      branch
      phase
      outcome
    }
    ... on AgentQuestion {
      requestId
      runId
      nodeId
      kind
      question
      context
      expiresAt
    }
    ... on QuestionResolved {
      requestId
      runId
      nodeId
      status
    }
    ... on AgentTokens {
      runId
      nodeId
      text
    }
    ... on ConsultationChanged {
      consultationId
      change
      targetId
      line
    }
    ... on ConsultationTokens {
      consultationId
      text
    }
    ... on RunFinished {
      runId
      nodeId
      run {
        promptTokens
        completionTokens
        tokensEstimated
      }
    }
    ... on RunFailed {
      runId
      nodeId
      code
      reason
      run {
        raw
      }
    }
    ... on RunWaitingForDependencies {
      runId
      nodeId
      waitingForIds
      waitingForQuestions
      run {
        agent
        status
      }
    }
    ... on DecisionRecorded {
      runId
      nodeId
      decision {
        ...DecisionFields
      }
    }
    ... on SuggestionPosted {
      runId
      suggestion {
        id
        status
      }
    }
    ... on SuggestionResolved {
      runId
      suggestion {
        id
        status
      }
    }
    ... on DivergentLevelStarted {
      runId
      nodeId
      level
      taskNodeIds
    }
    ... on DivergentTaskStarted {
      runId
      nodeId
      level
      key
    }
    ... on DivergentTaskFinished {
      runId
      nodeId
      level
      key
    }
    ... on CompletionScored {
      runId
      nodeId
      level
      overall
    }
    ... on DivergentFinished {
      runId
      nodeId
      level
    }
    ... on DivergentSteered {
      runId
    }
  }
`,
  [
    DECISION_FIELDS,
    WORKSPACE_NODE_FIELDS,
    WORKSPACE_MAP_FIELDS,
    DEPENDENCY_FIELDS,
    MESSAGE_FIELDS,
    CONTEXT_ITEM_FIELDS,
  ],
);

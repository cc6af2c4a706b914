import { gql } from '@urql/core';

/** The fields of a node that the workspace and tests show. */
export const NODE_FIELDS = gql`
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
    version
    createdAt
    updatedAt
  }
`;

/** The node fields the web workspace draws: {@link NODE_FIELDS} plus divergent-mode placement and score. */
export const WORKSPACE_NODE_FIELDS = gql`
  fragment WorkspaceNodeFields on Node {
    ...NodeFields
    divergentLevel
    divergentRole
    completionScore
    concludedAt
  }
  ${NODE_FIELDS}
`;

/** The map fields the web workspace shows and edits. */
export const WORKSPACE_MAP_FIELDS = gql`
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
`;

/** Every typed error, with the details each carries. */
export const ERROR_FIELDS = gql`
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
  }
`;

/** Every event, with what each carries. */
export const EVENT_FIELDS = gql`
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
    ... on NodeDeleted {
      nodeIds
      dependencyIds
    }
    ... on DependencyAdded {
      nodeId
      dependsOnId
      dependency {
        id
      }
    }
    ... on DependencyRemoved {
      nodeId
      dependsOnId
      dependency {
        id
      }
    }
    ... on ContextUpdated {
      nodeId
      action
      item {
        id
        title
        content
        createdAt
      }
    }
    ... on MessagePosted {
      nodeId
      message {
        id
        conversationId
        parentId
        role
        kind
        content
        metadata
        createdAt
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
      }
    }
    ... on AgentStep {
      runId
      graph
      nodeId
      step
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
    ... on RunFinished {
      runId
      nodeId
      run {
        promptTokens
        completionTokens
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
  }
  ${WORKSPACE_NODE_FIELDS}
  ${WORKSPACE_MAP_FIELDS}
`;

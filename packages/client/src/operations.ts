import { gql } from '@urql/core';
import { ERROR_FIELDS, EVENT_FIELDS, NODE_FIELDS, WORKSPACE_MAP_FIELDS, WORKSPACE_NODE_FIELDS } from './fragments.ts';

export const VIEWER = gql`
  query Viewer {
    viewer {
      id
      name
      isLocal
    }
  }
`;

export const MAPS = gql`
  query Maps {
    maps {
      id
      title
      status
      language
      mode
      updatedAt
      nodeCount
    }
  }
`;

/** A whole map: its fields, every node with its dependencies, and the sequence to subscribe after. */
export const MAP = gql`
  query Map($id: ID!) {
    map(id: $id) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
        nodes {
          ...NodeFields
        }
        dependencies {
          id
          nodeId
          dependsOnId
        }
      }
      ...ErrorFields
    }
  }
  ${WORKSPACE_MAP_FIELDS}
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

/** One node with everything its panel shows. */
export const NODE = gql`
  query Node($id: ID!) {
    node(id: $id) {
      __typename
      ... on Node {
        ...NodeFields
        parent {
          id
          question
        }
        children {
          id
          question
          status
          position
        }
        dependencies {
          dependsOn {
            id
            question
            status
          }
        }
        dependents {
          node {
            id
            question
            status
          }
        }
        readiness {
          ready
          blockedReason
          openDependencies {
            id
            question
          }
        }
        contextItems {
          id
          title
          content
          createdAt
        }
        conversations {
          id
          kind
          messages {
            id
            parentId
            role
            kind
            content
            metadata
            createdAt
          }
        }
      }
      ...ErrorFields
    }
  }
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

export const READINESS = gql`
  query Readiness($nodeId: ID!) {
    readiness(nodeId: $nodeId) {
      __typename
      ... on Readiness {
        ready
        blockedReason
        openDependencies {
          id
          question
        }
      }
      ...ErrorFields
    }
  }
  ${ERROR_FIELDS}
`;

export const EXECUTION_ORDER = gql`
  query ExecutionOrder($mapId: ID!) {
    executionOrder(mapId: $mapId) {
      __typename
      ... on ExecutionOrder {
        nodeIds
      }
      ...ErrorFields
    }
  }
  ${ERROR_FIELDS}
`;

export const MESSAGE_THREAD = gql`
  query MessageThread($messageId: ID!) {
    messageThread(messageId: $messageId) {
      __typename
      ... on MessageThread {
        messages {
          id
          parentId
          content
          role
        }
      }
      ...ErrorFields
    }
  }
  ${ERROR_FIELDS}
`;

export const EVENTS = gql`
  query Events($mapId: ID!, $after: Int, $first: Int) {
    events(mapId: $mapId, after: $after, first: $first) {
      __typename
      ... on EventPage {
        hasMore
        lastSeq
        events {
          ...EventFields
        }
      }
      ...ErrorFields
    }
  }
  ${EVENT_FIELDS}
  ${ERROR_FIELDS}
`;

/** The web workspace subscribes with the same selection as every other client. */
export const MAP_EVENTS = gql`
  subscription MapEvents($mapId: ID!, $after: Int) {
    mapEvents(mapId: $mapId, after: $after) {
      ...EventFields
    }
  }
  ${EVENT_FIELDS}
`;

const result = (name: string, inner: string) => `
    ${name} {
      __typename
      ${inner}
      ...ErrorFields
    }`;

export const CREATE_MAP = gql`
  mutation CreateMap($input: CreateMapInput!) {
    ${result('createMap(input: $input)', '... on Map { id title problem goal constraints language mode status version lastSeq }')}
  }
  ${ERROR_FIELDS}
`;

export const UPDATE_MAP = gql`
  mutation UpdateMap($input: UpdateMapInput!) {
    ${result('updateMap(input: $input)', '... on Map { id title problem goal constraints language mode status autoRun tokenBudget tokensUsed version }')}
  }
  ${ERROR_FIELDS}
`;

export const DELETE_MAP = gql`
  mutation DeleteMap($id: ID!) {
    ${result('deleteMap(id: $id)', '... on DeletedMap { id }')}
  }
  ${ERROR_FIELDS}
`;

export const CREATE_NODE = gql`
  mutation CreateNode($input: CreateNodeInput!) {
    ${result('createNode(input: $input)', '... on Node { ...NodeFields }')}
  }
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

export const UPDATE_NODE = gql`
  mutation UpdateNode($input: UpdateNodeInput!) {
    ${result('updateNode(input: $input)', '... on Node { ...NodeFields }')}
  }
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

export const DELETE_NODE = gql`
  mutation DeleteNode($id: ID!) {
    ${result('deleteNode(id: $id)', '... on DeletedNodes { nodeIds dependencyIds }')}
  }
  ${ERROR_FIELDS}
`;

export const MOVE_NODE = gql`
  mutation MoveNode($input: MoveNodeInput!) {
    ${result('moveNode(input: $input)', '... on Node { ...NodeFields }')}
  }
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

export const ADD_DEPENDENCY = gql`
  mutation AddDependency($nodeId: ID!, $dependsOnId: ID!) {
    ${result('addDependency(nodeId: $nodeId, dependsOnId: $dependsOnId)', '... on Dependency { id nodeId dependsOnId }')}
  }
  ${ERROR_FIELDS}
`;

export const REMOVE_DEPENDENCY = gql`
  mutation RemoveDependency($nodeId: ID!, $dependsOnId: ID!) {
    ${result('removeDependency(nodeId: $nodeId, dependsOnId: $dependsOnId)', '... on Dependency { id nodeId dependsOnId }')}
  }
  ${ERROR_FIELDS}
`;

export const ADD_CONTEXT_ITEM = gql`
  mutation AddContextItem($nodeId: ID!, $content: String!, $title: String) {
    ${result('addContextItem(nodeId: $nodeId, content: $content, title: $title)', '... on ContextItem { id nodeId title content }')}
  }
  ${ERROR_FIELDS}
`;

export const REMOVE_CONTEXT_ITEM = gql`
  mutation RemoveContextItem($id: ID!) {
    ${result('removeContextItem(id: $id)', '... on ContextItem { id }')}
  }
  ${ERROR_FIELDS}
`;

export const POST_MESSAGE = gql`
  mutation PostMessage($input: PostMessageInput!) {
    ${result('postMessage(input: $input)', '... on Message { id conversationId parentId role kind content createdAt }')}
  }
  ${ERROR_FIELDS}
`;

export const SET_CONCLUSION = gql`
  mutation SetConclusion($input: SetConclusionInput!) {
    ${result('setConclusion(input: $input)', '... on Node { ...NodeFields }')}
  }
  ${NODE_FIELDS}
  ${ERROR_FIELDS}
`;

export const CLEAR_CONVERSATION = gql`
  mutation ClearConversation($nodeId: ID!, $conversation: ConversationKind!) {
    ${result('clearConversation(nodeId: $nodeId, conversation: $conversation)', '... on ClearedConversation { clearedCount }')}
  }
  ${ERROR_FIELDS}
`;

/** A whole map for the web workspace: fields, every node (with divergent placement), dependencies. */
export const WORKSPACE_MAP = gql`
  query WorkspaceMap($id: ID!) {
    map(id: $id) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
        nodes {
          ...WorkspaceNodeFields
        }
        dependencies {
          id
          nodeId
          dependsOnId
        }
      }
      ...ErrorFields
    }
  }
  ${WORKSPACE_MAP_FIELDS}
  ${WORKSPACE_NODE_FIELDS}
  ${ERROR_FIELDS}
`;

const RUN_FIELDS = `id mapId nodeId agent status error errorCode raw promptTokens completionTokens createdAt finishedAt`;

export const PROCESS_NODE = gql`
  mutation ProcessNode($nodeId: ID!, $intent: NodeIntent, $strategy: DecompositionStrategy, $conclusionKind: ConclusionKind) {
    ${result('processNode(nodeId: $nodeId, intent: $intent, strategy: $strategy, conclusionKind: $conclusionKind)', `... on AgentRun { ${RUN_FIELDS} }`)}
  }
  ${ERROR_FIELDS}
`;

export const REPLY_TO_AGENT = gql`
  mutation ReplyToAgent($input: ReplyToAgentInput!) {
    ${result('replyToAgent(input: $input)', `... on AgentRun { ${RUN_FIELDS} }`)}
  }
  ${ERROR_FIELDS}
`;

export const REVIEW_DECOMPOSITION = gql`
  mutation ReviewDecomposition($input: ReviewDecompositionInput!) {
    ${result('reviewDecomposition(input: $input)', `... on AgentRun { ${RUN_FIELDS} }`)}
  }
  ${ERROR_FIELDS}
`;

export const CANCEL_RUN = gql`
  mutation CancelRun($runId: ID!) {
    ${result('cancelRun(runId: $runId)', `... on AgentRun { ${RUN_FIELDS} }`)}
  }
  ${ERROR_FIELDS}
`;

export const RUNS = gql`
  query Runs($mapId: ID!) {
    runs(mapId: $mapId) {
      __typename
      ... on QueryRunsSuccess { data { ${RUN_FIELDS} } }
      ...ErrorFields
    }
  }
  ${ERROR_FIELDS}
`;

export const PENDING_QUESTIONS = gql`
  query PendingQuestions($mapId: ID!) {
    pendingQuestions(mapId: $mapId) {
      __typename
      ... on QueryPendingQuestionsSuccess {
        data { requestId runId mapId nodeId kind question context status createdAt expiresAt }
      }
      ...ErrorFields
    }
  }
  ${ERROR_FIELDS}
`;

export const AGENT_MODEL = gql`
  query AgentModel {
    agentModel {
      offline
      label
    }
  }
`;

/** @deprecated name kept for the web workspace: the same subscription as {@link MAP_EVENTS}. */
export const WORKSPACE_MAP_EVENTS = MAP_EVENTS;

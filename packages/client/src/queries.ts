import {
  CONTEXT_ITEM_FIELDS,
  DECISION_FIELDS,
  DEPENDENCY_FIELDS,
  ERROR_FIELDS,
  MESSAGE_FIELDS,
  NODE_FIELDS,
  WORKSPACE_MAP_FIELDS,
  WORKSPACE_NODE_FIELDS,
} from './fragments.ts';
import { graphql } from './graphql.ts';

/** Who the request acts as. */
export const VIEWER = graphql(`
  query Viewer {
    viewer {
      id
      name
      isLocal
    }
  }
`);

/** The viewer's maps, one line each. */
export const MAPS = graphql(`
  query Maps {
    maps {
      id
      title
      problem
      status
      language
      mode
      updatedAt
      nodeCount
    }
  }
`);

/** A whole map: its fields, every node with its dependencies, and the sequence to subscribe after. */
export const MAP = graphql(
  `
  query Map($id: ID!) {
    map(id: $id) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
        progress {
          total
          concluded
          open
          stale
        }
        nodes {
          ...NodeFields
        }
        dependencies {
          ...DependencyFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_MAP_FIELDS, NODE_FIELDS, DEPENDENCY_FIELDS, ERROR_FIELDS],
);

/** A whole map for the web workspace: fields, every node (with divergent placement), dependencies. */
export const WORKSPACE_MAP = graphql(
  `
  query WorkspaceMap($id: ID!) {
    map(id: $id) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
        nodes {
          ...WorkspaceNodeFields
        }
        dependencies {
          ...DependencyFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_MAP_FIELDS, WORKSPACE_NODE_FIELDS, DEPENDENCY_FIELDS, ERROR_FIELDS],
);

/** One node with everything its panel shows. */
export const NODE = graphql(
  `
  query Node($id: ID!) {
    node(id: $id) {
      __typename
      ... on Node {
        ...WorkspaceNodeFields
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
          ...ContextItemFields
        }
        conversations {
          id
          kind
          messages {
            ...MessageFields
          }
        }
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_NODE_FIELDS, CONTEXT_ITEM_FIELDS, MESSAGE_FIELDS, ERROR_FIELDS],
);

/** Whether a node may proceed, and what it still waits for. */
export const READINESS = graphql(
  `
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
`,
  [ERROR_FIELDS],
);

/** The order in which a map's nodes can be concluded (dependencies first). */
export const EXECUTION_ORDER = graphql(
  `
  query ExecutionOrder($mapId: ID!) {
    executionOrder(mapId: $mapId) {
      __typename
      ... on ExecutionOrder {
        nodeIds
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** The messages from the start of a thread down to one message. */
export const MESSAGE_THREAD = graphql(
  `
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
`,
  [ERROR_FIELDS],
);

/** What runs decided about a node, oldest first (`kind: INTENT` is the history of its intent). */
export const NODE_DECISIONS = graphql(
  `
  query NodeDecisions($id: ID!, $kind: DecisionKind) {
    node(id: $id) {
      __typename
      ... on Node {
        id
        intent
        decisions(kind: $kind) {
          ...DecisionFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [DECISION_FIELDS, ERROR_FIELDS],
);

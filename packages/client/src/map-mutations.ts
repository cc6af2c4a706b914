import { DEPENDENCY_FIELDS, ERROR_FIELDS, WORKSPACE_MAP_FIELDS, WORKSPACE_NODE_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** Creates a map; with a `problem`, the problem-understanding agent starts. */
export const CREATE_MAP = graphql(
  `
  mutation CreateMap($input: CreateMapInput!) {
    createMap(input: $input) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_MAP_FIELDS, ERROR_FIELDS],
);

/** Changes a map's fields (also `autoRun` and its token budget). */
export const UPDATE_MAP = graphql(
  `
  mutation UpdateMap($input: UpdateMapInput!) {
    updateMap(input: $input) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
        tokenBudget
        tokensUsed
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_MAP_FIELDS, ERROR_FIELDS],
);

/** Deletes a map with everything in it. */
export const DELETE_MAP = graphql(
  `
  mutation DeleteMap($id: ID!) {
    deleteMap(id: $id) {
      __typename
      ... on DeletedMap {
        id
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Adds a node (a root without `parentId`). */
export const CREATE_NODE = graphql(
  `
  mutation CreateNode($input: CreateNodeInput!) {
    createNode(input: $input) {
      __typename
      ... on Node {
        ...WorkspaceNodeFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_NODE_FIELDS, ERROR_FIELDS],
);

/** Edits a node's question, goal or constraints at the version the person saw. */
export const UPDATE_NODE = graphql(
  `
  mutation UpdateNode($input: UpdateNodeInput!) {
    updateNode(input: $input) {
      __typename
      ... on Node {
        ...WorkspaceNodeFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_NODE_FIELDS, ERROR_FIELDS],
);

/** Deletes a node and its subtree. */
export const DELETE_NODE = graphql(
  `
  mutation DeleteNode($id: ID!) {
    deleteNode(id: $id) {
      __typename
      ... on DeletedNodes {
        nodeIds
        dependencyIds
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Moves a node under another parent. */
export const MOVE_NODE = graphql(
  `
  mutation MoveNode($input: MoveNodeInput!) {
    moveNode(input: $input) {
      __typename
      ... on Node {
        ...WorkspaceNodeFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_NODE_FIELDS, ERROR_FIELDS],
);

/** Makes `nodeId` wait for `dependsOnId`; a cycle is refused with its path. */
export const ADD_DEPENDENCY = graphql(
  `
  mutation AddDependency($nodeId: ID!, $dependsOnId: ID!) {
    addDependency(nodeId: $nodeId, dependsOnId: $dependsOnId) {
      __typename
      ... on Dependency {
        ...DependencyFields
      }
      ...ErrorFields
    }
  }
`,
  [DEPENDENCY_FIELDS, ERROR_FIELDS],
);

/** Removes a dependency. */
export const REMOVE_DEPENDENCY = graphql(
  `
  mutation RemoveDependency($nodeId: ID!, $dependsOnId: ID!) {
    removeDependency(nodeId: $nodeId, dependsOnId: $dependsOnId) {
      __typename
      ... on Dependency {
        ...DependencyFields
      }
      ...ErrorFields
    }
  }
`,
  [DEPENDENCY_FIELDS, ERROR_FIELDS],
);

/** Adds context for the agents to a node. */
export const ADD_CONTEXT_ITEM = graphql(
  `
  mutation AddContextItem($nodeId: ID!, $content: String!, $title: String) {
    addContextItem(nodeId: $nodeId, content: $content, title: $title) {
      __typename
      ... on ContextItem {
        id
        nodeId
        title
        content
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Removes a context item. */
export const REMOVE_CONTEXT_ITEM = graphql(
  `
  mutation RemoveContextItem($id: ID!) {
    removeContextItem(id: $id) {
      __typename
      ... on ContextItem {
        id
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Posts a message to one of a node's conversations. */
export const POST_MESSAGE = graphql(
  `
  mutation PostMessage($input: PostMessageInput!) {
    postMessage(input: $input) {
      __typename
      ... on Message {
        id
        conversationId
        parentId
        role
        kind
        content
        createdAt
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Writes a node's conclusion at the version the person saw. */
export const SET_CONCLUSION = graphql(
  `
  mutation SetConclusion($input: SetConclusionInput!) {
    setConclusion(input: $input) {
      __typename
      ... on Node {
        ...WorkspaceNodeFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_NODE_FIELDS, ERROR_FIELDS],
);

/** Empties one of a node's conversations. */
export const CLEAR_CONVERSATION = graphql(
  `
  mutation ClearConversation($nodeId: ID!, $conversation: ConversationKind!) {
    clearConversation(nodeId: $nodeId, conversation: $conversation) {
      __typename
      ... on ClearedConversation {
        clearedCount
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Imports a file (JSON export, Markdown or OPML outline) as a new map of the viewer. */
export const IMPORT_MAP = graphql(
  `
  mutation ImportMap($input: ImportMapInput!) {
    importMap(input: $input) {
      __typename
      ... on Map {
        ...WorkspaceMapFields
      }
      ...ErrorFields
    }
  }
`,
  [WORKSPACE_MAP_FIELDS, ERROR_FIELDS],
);

/** A whole map as a file (JSON, Markdown or OPML), rendered by the server. */
export const EXPORT_MAP = graphql(
  `
  query ExportMap($mapId: ID!, $format: MapFileFormat!) {
    exportMap(mapId: $mapId, format: $format) {
      __typename
      ... on MapFile {
        fileName
        mimeType
        content
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** Records as the web workspace receives them from the GraphQL API (see packages/client operations). */

/** A node's progress, as the server reports it. */
export type NodeStatus = 'PENDING' | 'READY' | 'BLOCKED' | 'RUNNING' | 'WAITING' | 'COMPLETED' | 'FAILED';
/** Which of a node's two conversations. */
export type ConversationKind = 'DECOMPOSE' | 'CONCLUDE';
/** The kinds of conclusion a node can have. */
export type ConclusionKind = 'ANALYTICAL' | 'CREATIVE' | 'DECISION' | 'LEARNING';
/** A map's mode; divergent maps place nodes on levels. */
export type MapMode = 'STANDARD' | 'DIVERGENT';
/** A node's part in a divergent level. */
export type DivergentRole = 'SUMMARY' | 'TASK' | 'FINAL';
/** Interface languages (and map languages). */
export type Language = 'zh' | 'en';

/** A thinking-map node, as the workspace draws it. */
export interface NodeRecord {
  id: string;
  mapId: string;
  parentId: string | null;
  position: number;
  question: string;
  goal: string;
  constraints: string[];
  type: 'ROOT' | 'TASK';
  status: NodeStatus;
  intent: string | null;
  strategy: string | null;
  conclusion: string | null;
  conclusionKind: ConclusionKind | null;
  version: number;
  divergentLevel?: number | null;
  divergentRole?: DivergentRole | null;
  completionScore?: number | null;
  createdAt?: string;
  updatedAt?: string;
}

/** `nodeId` waits for `dependsOnId`. */
export interface DependencyRecord {
  id: string;
  nodeId: string;
  dependsOnId: string;
}

/** A map's own fields. */
export interface MapRecord {
  id: string;
  title: string;
  problem: string;
  goal: string;
  constraints: string[];
  language: Language;
  mode: MapMode;
  status: string;
  autoRun: boolean;
  version: number;
  lastSeq: number;
}

/** One line of the map list. */
export interface MapSummary {
  id: string;
  title: string;
  status: string;
  language: Language;
  mode: MapMode;
  updatedAt: string;
  nodeCount: number;
}

/** Context the person added to a node. */
export interface ContextItemRecord {
  id: string;
  title: string;
  content: string;
  createdAt?: string;
}

/** A conversation message. */
export interface MessageRecord {
  id: string;
  conversationId?: string;
  parentId: string | null;
  role: 'USER' | 'ASSISTANT' | 'SYSTEM';
  kind: 'TEXT' | 'RAG' | 'NOTICE';
  content: string;
  metadata: unknown;
  createdAt: string;
}

/** A node's conversation with its messages. */
export interface ConversationRecord {
  id: string;
  kind: ConversationKind;
  messages: MessageRecord[];
}

/** A node linked from another (parent, child, dependency). */
export interface NodeRef {
  id: string;
  question: string;
  status?: NodeStatus;
}

/** What the node panel shows beyond the tree's own fields. */
export interface NodeDetailRecord extends NodeRecord {
  readiness: { ready: boolean; blockedReason: string | null; openDependencies: NodeRef[] };
  contextItems: ContextItemRecord[];
  conversations: ConversationRecord[];
}

import type {
  ConclusionKind,
  ConversationKind,
  DecompositionStrategy,
  DivergentRole,
  Language,
  MessageKind,
  MessageRole,
  NodeIntent,
  NodeStatus,
  NodeType,
} from './enums.ts';

/** A thinking map as agents see it. */
export interface MapRecord {
  id: string;
  title: string;
  problem: string;
  goal: string;
  constraints: string[];
  language: Language;
  /** Token budget left for model calls on this map; null means unlimited. */
  tokenBudgetLeft: number | null;
}

/** A node of the thinking tree. Data, never a LangGraph node. */
export interface NodeRecord {
  id: string;
  mapId: string;
  parentId: string | null;
  position: number;
  question: string;
  goal: string;
  constraints: string[];
  type: NodeType;
  status: NodeStatus;
  intent: NodeIntent | null;
  strategy: DecompositionStrategy | null;
  conclusion: string | null;
  conclusionKind: ConclusionKind | null;
  /** Divergent exploration: the node's role and level, and a summary's completion score (absent elsewhere). */
  divergentRole?: DivergentRole | null;
  divergentLevel?: number | null;
  completionScore?: number | null;
}

/** Context the person attached to a node. */
export interface ContextItemRecord {
  id: string;
  title: string;
  content: string;
  createdAt: Date;
}

/** A source shown with a retrieval message. */
export interface MessageSource {
  title: string;
  uri?: string;
}

/** A message in one of a node's two conversations. `parentId` links a reply to what it answers. */
export interface MessageRecord {
  id: string;
  nodeId: string;
  conversation: ConversationKind;
  parentId: string | null;
  role: MessageRole;
  kind: MessageKind;
  content: string;
  /** Free-form data: `sources` for RAG messages, `requestId` for questions, `offline: true`, … */
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

/** A dependency edge between siblings: `nodeId` needs `dependsOnId`'s conclusion first. */
export interface DependencyRecord {
  nodeId: string;
  dependsOnId: string;
}

import type {
  ConclusionKind,
  ConsultationRecordKind,
  DecidedBy,
  DecisionKind,
  DecompositionStrategy,
  DivergentRole,
  Language,
  MapMode,
  MapStatus,
  MessageKind,
  MessageRole,
  NodeIntent,
  NodeStatus,
  RunStatus,
  StaleReason,
} from '@thinkingmap/db/enums';

/** A JSON value as a JSON column holds it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A message of one of a node's two conversations; `parentId` is the message it answers. */
export interface MarkdownMessage {
  id: string;
  parentId: string | null;
  role: MessageRole;
  kind: MessageKind;
  content: string;
  metadata: JsonValue;
}

/** A decision a run made about a node, with the run (its id and agent) it belongs to. */
export interface MarkdownDecision {
  runId: string;
  agent: string;
  kind: DecisionKind;
  choice: JsonValue;
  reason: string;
  confidence: number | null;
  decidedBy: DecidedBy;
  overridden: JsonValue;
}

/** A node as the renderer needs it: plain data, whatever loaded it (database rows, the web's store). */
export interface MarkdownNode {
  id: string;
  parentId: string | null;
  /** Place among its siblings. */
  position: number;
  question: string;
  goal?: string;
  constraints?: readonly string[];
  status: NodeStatus;
  /** Why the node is BLOCKED or FAILED, in words. */
  statusReason?: string | null;
  conclusion?: string | null;
  conclusionKind?: ConclusionKind | null;
  /** Set while the conclusion is out of date; the source is the node whose change made it so. */
  staleReason?: StaleReason | null;
  staleSourceQuestion?: string | null;
  /** Ids of the nodes this one waits for. */
  dependsOn?: readonly string[];
  /** Divergent exploration: the node's role and level, and a summary's completion score. */
  divergentRole?: DivergentRole | null;
  divergentLevel?: number | null;
  completionScore?: number | null;
  contextItems?: readonly { title: string; content: string }[];
  /** What the agents chose for it. */
  intent?: NodeIntent | null;
  strategy?: DecompositionStrategy | null;
  /** Its two conversations, oldest message first (the JSON export carries them). */
  conversations?: { decompose: readonly MarkdownMessage[]; conclude: readonly MarkdownMessage[] };
  /** The runs' decisions about it, oldest first (the JSON export carries them). */
  decisions?: readonly MarkdownDecision[];
}

/** A question a paused run waits on. */
export interface MarkdownQuestion {
  requestId: string;
  nodeId: string | null;
  kind: string;
  question: string;
}

/** An agent run. Only running and waiting runs are rendered. */
export interface MarkdownRun {
  id: string;
  agent: string;
  nodeId: string | null;
  status: RunStatus;
}

/** A record a consultation's planner wrote (and the person may have edited). */
export interface MarkdownConsultationRecord {
  id: string;
  kind: ConsultationRecordKind;
  content: string;
  /** The person's message it came from. */
  sourceMessageId?: string | null;
}

/** A consultation on the map, with its records, oldest first. */
export interface MarkdownConsultation {
  id: string;
  records: readonly MarkdownConsultationRecord[];
}

/** A Markdown note of the map's consultations: its path in the map's notes folder and its text. */
export interface MarkdownNote {
  path: string;
  content: string;
}

/** A whole map as the renderer takes it. Nodes may come in any order; they are rendered in tree order. */
export interface MarkdownMap {
  id: string;
  title: string;
  problem?: string;
  goal?: string;
  constraints?: readonly string[];
  /** The map's language: the headings and labels are written in it. */
  language: Language;
  status: MapStatus;
  mode?: MapMode;
  nodes: readonly MarkdownNode[];
  pendingQuestions?: readonly MarkdownQuestion[];
  runs?: readonly MarkdownRun[];
  /** The map's consultations (oldest first) and notes (by path): they go with the map's exports. */
  consultations?: readonly MarkdownConsultation[];
  notes?: readonly MarkdownNote[];
}

/** How to render. */
export interface MarkdownOptions {
  /**
   * Show ids (map, nodes, questions, runs) in backticks, so a model reading the text can call tools with them
   * (MCP). A person's export leaves them out. Default true.
   */
  ids?: boolean;
}

import type {
  ConclusionKind,
  ConsultationRecordKind,
  DivergentRole,
  Language,
  MapStatus,
  NodeStatus,
  RunStatus,
  StaleReason,
} from '@thinkingmap/db/enums';

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

import type {
  ConclusionKind,
  ConversationKind,
  DecidedBy,
  DecisionKind,
  DecompositionStrategy,
  Language,
  MessageKind,
  MessageRole,
  NodeIntent,
  NodeStatus,
} from '../domain/enums.ts';
import type {
  ContextItemRecord,
  DependencyRecord,
  MapRecord,
  MessageRecord,
  MessageSource,
  NodeRecord,
} from '../domain/records.ts';

/** A node with everything around it that the context manager reads, in one call. */
export interface NodeNeighbourhood {
  map: MapRecord;
  node: NodeRecord;
  /** How deep the node lies: 0 for the root, 1 for its children, … */
  depth: number;
  /** The parent node, or null for the root. */
  parent: NodeRecord | null;
  /** The siblings this node depends on (their conclusions come first). */
  dependencies: NodeRecord[];
  /** Direct children in sibling order. */
  children: NodeRecord[];
  /** Dependency edges among the children. */
  childDependencies: DependencyRecord[];
  /** Context items the person attached to this node, oldest first. */
  contextItems: ContextItemRecord[];
}

/** The tail of a conversation plus what is needed to summarise the rest. */
export interface ConversationTail {
  /** The last `limit` messages, oldest first. */
  messages: MessageRecord[];
  /** How many messages the conversation holds in all. */
  total: number;
  /** How many of them each role wrote (the person, the assistant, the system). */
  byRole: Record<MessageRole, number>;
  /** When the first and the last message were written; null when empty. */
  firstAt: Date | null;
  lastAt: Date | null;
}

/**
 * Every write takes an optional `idempotencyKey`. A store that sees a key again returns what it returned the
 * first time and changes nothing, so a graph step that LangGraph re-runs after a resume or a crash cannot
 * create duplicates. Graphs build keys from the run's thread id and the step.
 */
export interface Idempotent {
  idempotencyKey?: string;
}

/** Input of {@link StorePort.createNode}. */
export interface CreateNodeInput extends Idempotent {
  mapId: string;
  /** Null creates the map's root node. */
  parentId: string | null;
  question: string;
  goal: string;
  constraints?: string[];
}

/** Input of {@link StorePort.postMessage}. */
export interface PostMessageInput extends Idempotent {
  nodeId: string;
  conversation: ConversationKind;
  role: MessageRole;
  kind: MessageKind;
  content: string;
  parentId?: string | null;
  sources?: MessageSource[];
  metadata?: Record<string, unknown>;
}

/**
 * One decision of a run about a node, with its reasons (see {@link StorePort.recordDecision}). `key` names it
 * within its run, so a step LangGraph re-runs records it once.
 */
export interface DecisionInput {
  runId: string;
  nodeId: string;
  kind: DecisionKind;
  /** What was chosen: `{ intent }`, `{ strategy, factors }`, `{ subQuestions }`, `{ dependencies }`, `{ kind }`. */
  choice: Record<string, unknown>;
  /** Why, in words the person reads. */
  reason: string;
  /** How sure the model was (0 to 1), when it said. */
  confidence?: number | null;
  decidedBy: DecidedBy;
  /** What the model had proposed when the person (or a rule) chose otherwise. */
  overridden?: Record<string, unknown> | null;
  key: string;
}

/** What problem understanding settles about a map. */
export interface MapUnderstanding {
  /** The map's title as confirmed (unchanged when not given). */
  title?: string;
  problem: string;
  goal: string;
  constraints: string[];
  language: Language;
}

/**
 * How agents read and change the thinking map. The server implements it through its command layer, so
 * every write is validated, persisted in a transaction and appended as an event, exactly like a mutation.
 * Refusals are thrown as `AgentError` with codes `NODE_NOT_FOUND`, `CYCLE`, `INVALID_INPUT`.
 */
export interface StorePort {
  /** Reads a map. */
  readMap(mapId: string): Promise<MapRecord>;
  /** Reads a node with its map, parent, dependency siblings, children and context items. */
  readNode(nodeId: string): Promise<NodeNeighbourhood>;
  /** Reads the last `limit` messages of one of a node's conversations. */
  readConversation(nodeId: string, conversation: ConversationKind, limit: number): Promise<ConversationTail>;
  /** Records what problem understanding settled (problem, goal, constraints, language) on the map. */
  updateMap(mapId: string, understanding: MapUnderstanding & Idempotent): Promise<MapRecord>;
  /** Creates a node (the root when `parentId` is null) at the end of its siblings. */
  createNode(input: CreateNodeInput): Promise<NodeRecord>;
  /** Changes a node's question, goal or constraints. */
  updateNode(
    nodeId: string,
    patch: { question?: string; goal?: string; constraints?: string[] } & Idempotent,
  ): Promise<NodeRecord>;
  /** Stores a node's conclusion and marks it COMPLETED. */
  concludeNode(nodeId: string, conclusion: { text: string; kind: ConclusionKind } & Idempotent): Promise<NodeRecord>;
  /** Adds a sibling dependency; throws `CYCLE` when it would close one. */
  addDependency(nodeId: string, dependsOnId: string, options?: Idempotent): Promise<DependencyRecord>;
  /** Appends a message to one of a node's conversations. */
  postMessage(input: PostMessageInput): Promise<MessageRecord>;
  /**
   * Posts a message the run never reads back (a draft it is about to ask about): checked now, written with the
   * run's next write at the latest when it pauses or ends, in the same transaction, so it costs no write of its own.
   */
  queueMessage(input: PostMessageInput): Promise<void>;
  /**
   * Concludes a node as {@link concludeNode} does, written like {@link queueMessage}: with the run's next write (its
   * end, when concluding is the run's last step), so the conclusion and the run's end are one change.
   */
  queueConclusion(nodeId: string, conclusion: { text: string; kind: ConclusionKind } & Idempotent): Promise<void>;
  /** Sets a node's status; `reason` explains BLOCKED and FAILED. */
  setNodeStatus(nodeId: string, status: NodeStatus, reason?: string): Promise<void>;
  /** Records the intent an agent (or the person) chose. */
  setNodeIntent(nodeId: string, intent: NodeIntent): Promise<void>;
  /** Records the decomposition strategy an agent (or the person) chose. */
  setNodeStrategy(nodeId: string, strategy: DecompositionStrategy): Promise<void>;
  /** Records a decision of a run with its reasons (once per run and key), for the person to see. */
  recordDecision(decision: DecisionInput): Promise<void>;
}

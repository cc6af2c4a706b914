import type {
  AgentQuestion,
  AgentRun,
  ContextItem,
  CriticSuggestion,
  Dependency,
  Map as MapRow,
  Message,
  Node,
} from '../generated/sqlite/client.ts';
import type { ConversationKind, MessageRole } from '../generated/sqlite/enums.ts';
import type { ReadDb } from './database.ts';
import { type MapVersion, readMapVersion } from './map-version.ts';

/** A node with everything an agent collects around it, as Prisma's `include` gives it. */
export type NodeNeighbourhoodRow = Node & {
  map: MapRow;
  parent: Node | null;
  dependencies: (Dependency & { dependsOn: Node })[];
  /** By position, then creation. */
  children: Node[];
  /** By creation. */
  contextItems: ContextItem[];
};

/** A node's neighbourhood, and the dependencies between its children. */
export interface NodeNeighbourhoodRead {
  node: NodeNeighbourhoodRow;
  childDependencies: Pick<Dependency, 'nodeId' | 'dependsOnId'>[];
}

/** A node another depends on, as readiness is judged (see `@thinkingmap/map-graph`'s `readiness`). */
export type DependedOnNode = Pick<Node, 'id' | 'question' | 'status' | 'position'>;

/**
 * Everything agent runs read of the committed database, outside any write: a node's map, a node's neighbourhood
 * (collecting its context), its conversation, a question being answered, the runs waiting for dependencies. The one
 * interface agents read through; their writes go through the commands.
 */
export interface AgentReads {
  /** A map; null when there is none. */
  map(mapId: string): Promise<MapRow | null>;
  /** A map's {@link MapVersion} (its `lastSeq` moves with every change); null when there is no such map. */
  mapVersion(mapId: string): Promise<MapVersion | null>;
  /** Every node of a map, in no particular order. */
  nodesOf(mapId: string): Promise<Node[]>;
  /** Every dependency of a map, as its two ends. */
  dependencyEdgesOf(mapId: string): Promise<Pick<Dependency, 'nodeId' | 'dependsOnId'>[]>;
  /** The map of a node; null when there is no such node. */
  nodeMapId(nodeId: string): Promise<string | null>;
  /** A node's parent id and version; null when there is no such node. */
  nodeLink(nodeId: string): Promise<Pick<Node, 'parentId' | 'version'> | null>;
  /** A node with its map, parent, dependencies, children and context items; null when there is no such node. */
  neighbourhood(nodeId: string): Promise<NodeNeighbourhoodRead | null>;
  /** The nodes a node depends on, in their order among their siblings. */
  dependenciesOf(nodeId: string): Promise<DependedOnNode[]>;
  /** The latest `limit` messages of a node's conversation of `kind` not deleted, latest first (by time, then id). */
  latestMessages(nodeId: string, kind: ConversationKind, limit: number): Promise<Message[]>;
  /** How many messages of each role a node's conversation of `kind` holds, not deleted. */
  messageCounts(nodeId: string, kind: ConversationKind): Promise<[MessageRole, number][]>;
  /** When the first message of a node's conversation of `kind` not deleted was posted; null when there is none. */
  firstMessageAt(nodeId: string, kind: ConversationKind): Promise<Date | null>;
  /** A question; null when there is none. */
  question(questionId: string): Promise<AgentQuestion | null>;
  /** The newest `limit` critic suggestions of a map the person dismissed, newest first. */
  dismissedSuggestions(mapId: string, limit: number): Promise<CriticSuggestion[]>;
  /** The runs waiting for their node's dependencies, on one map or on all, oldest first. */
  waitingRuns(mapId?: string): Promise<AgentRun[]>;
}

/** The nodes a node depends on, in their order among their siblings (any client: a transaction or the read client). */
export async function dependenciesOf(read: Pick<ReadDb, 'dependency'>, nodeId: string): Promise<DependedOnNode[]> {
  const dependencies = await read.dependency.findMany({
    where: { nodeId },
    select: { dependsOn: { select: { id: true, question: true, status: true, position: true } } },
  });
  return dependencies.map((d) => d.dependsOn).sort((a, b) => a.position - b.position);
}

/** The agent reads over `read`, the client that sees only committed writes. */
export function createAgentReads(read: ReadDb): AgentReads {
  const inConversation = (nodeId: string, kind: ConversationKind) => ({
    conversation: { nodeId, kind },
    deletedAt: null,
  });
  return {
    map: (mapId) => read.map.findUnique({ where: { id: mapId } }),
    mapVersion: (mapId) => readMapVersion(read, mapId),
    nodesOf: (mapId) => read.node.findMany({ where: { mapId } }),
    dependencyEdgesOf: (mapId) =>
      read.dependency.findMany({ where: { mapId }, select: { nodeId: true, dependsOnId: true } }),
    async nodeMapId(nodeId) {
      return (await read.node.findUnique({ where: { id: nodeId }, select: { mapId: true } }))?.mapId ?? null;
    },
    nodeLink: (nodeId) => read.node.findUnique({ where: { id: nodeId }, select: { parentId: true, version: true } }),
    async neighbourhood(nodeId) {
      const node = await read.node.findUnique({
        where: { id: nodeId },
        include: {
          map: true,
          parent: true,
          dependencies: { include: { dependsOn: true }, orderBy: { id: 'asc' } },
          children: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
          contextItems: { orderBy: { createdAt: 'asc' } },
        },
      });
      if (!node) return null;
      const childIds = node.children.map((c) => c.id);
      const childDependencies = childIds.length
        ? await read.dependency.findMany({
            where: { nodeId: { in: childIds }, dependsOnId: { in: childIds } },
            select: { nodeId: true, dependsOnId: true },
          })
        : [];
      return { node, childDependencies };
    },
    dependenciesOf: (nodeId) => dependenciesOf(read, nodeId),
    latestMessages: (nodeId, kind, limit) =>
      read.message.findMany({
        where: inConversation(nodeId, kind),
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
      }),
    async messageCounts(nodeId, kind) {
      const groups = await read.message.groupBy({
        by: ['role'],
        where: inConversation(nodeId, kind),
        _count: { _all: true },
      });
      return groups.map((g) => [g.role, g._count._all]);
    },
    async firstMessageAt(nodeId, kind) {
      const first = await read.message.findFirst({
        where: inConversation(nodeId, kind),
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      });
      return first?.createdAt ?? null;
    },
    question: (questionId) => read.agentQuestion.findUnique({ where: { id: questionId } }),
    dismissedSuggestions: (mapId, limit) =>
      read.criticSuggestion.findMany({
        where: { mapId, status: 'DISMISSED' },
        orderBy: [{ resolvedAt: 'desc' }, { id: 'desc' }],
        take: limit,
      }),
    waitingRuns: (mapId) =>
      read.agentRun.findMany({
        where: { status: 'WAITING_FOR_DEPENDENCIES', ...(mapId ? { mapId } : {}) },
        orderBy: { createdAt: 'asc' },
      }),
  };
}

import type Sqlite from 'better-sqlite3';
import type {
  AgentQuestion,
  AgentRun,
  ContextItem,
  Dependency,
  Map as MapRow,
  Node,
} from '../generated/sqlite/client.ts';
import type { Db } from './database.ts';
import { sqliteRows } from './sqlite-rows.ts';

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

/**
 * What agent runs read of the committed database outside any write, on every processed node: a node's map, a node's
 * neighbourhood (collecting its context), a question being answered, the runs waiting for dependencies. On a SQLite
 * file they are statements prepared once on the read-only connection (as the conversation log's); elsewhere Prisma
 * calls. Both give the same rows (a test compares them).
 */
export interface AgentReads {
  /** The map of a node; null when there is no such node. */
  nodeMapId(nodeId: string): Promise<string | null>;
  /** A node with its map, parent, dependencies, children and context items; null when there is no such node. */
  neighbourhood(nodeId: string): Promise<NodeNeighbourhoodRead | null>;
  /** A question; null when there is none. */
  question(questionId: string): Promise<AgentQuestion | null>;
  /** The runs waiting for their node's dependencies, on one map or on all, oldest first. */
  waitingRuns(mapId?: string): Promise<AgentRun[]>;
}

/** The agent reads through Prisma (PostgreSQL, in-memory SQLite). */
export function prismaAgentReads(prisma: Db): AgentReads {
  return {
    async nodeMapId(nodeId) {
      return (await prisma.node.findUnique({ where: { id: nodeId }, select: { mapId: true } }))?.mapId ?? null;
    },
    async neighbourhood(nodeId) {
      const node = await prisma.node.findUnique({
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
        ? await prisma.dependency.findMany({
            where: { nodeId: { in: childIds }, dependsOnId: { in: childIds } },
            select: { nodeId: true, dependsOnId: true },
          })
        : [];
      return { node, childDependencies };
    },
    question: (questionId) => prisma.agentQuestion.findUnique({ where: { id: questionId } }),
    waitingRuns: (mapId) =>
      prisma.agentRun.findMany({
        where: { status: 'WAITING_FOR_DEPENDENCIES', ...(mapId ? { mapId } : {}) },
        orderBy: { createdAt: 'asc' },
      }),
  };
}

/** The agent reads on `reader`, a read-only connection to the SQLite file; through `fallback` without one. */
export function sqliteAgentReads(reader: Sqlite.Database | undefined, fallback: AgentReads): AgentReads {
  if (!reader) return fallback;
  const rows = sqliteRows(reader);
  const [asNode, asMap, asDependency, asContextItem, asQuestion, asRun] = [
    rows<Node>('Node'),
    rows<MapRow>('Map'),
    rows<Dependency>('Dependency'),
    rows<ContextItem>('ContextItem'),
    rows<AgentQuestion>('AgentQuestion'),
    rows<AgentRun>('AgentRun'),
  ];
  const byId = (table: string) => reader.prepare<[string]>(`SELECT * FROM "${table}" WHERE "id" = ?`);
  // Times are ISO text in one format (Prisma's): text order is time order, as Prisma orders them on SQLite.
  const s = {
    nodeMapId: reader.prepare<[string], string>('SELECT "mapId" FROM "Node" WHERE "id" = ?').pluck(),
    node: byId('Node'),
    map: byId('Map'),
    question: byId('AgentQuestion'),
    dependencies: reader.prepare<[string]>('SELECT * FROM "Dependency" WHERE "nodeId" = ? ORDER BY "id"'),
    children: reader.prepare<[string]>(
      'SELECT * FROM "Node" WHERE "parentId" = ? ORDER BY "position" ASC, "createdAt" ASC',
    ),
    contextItems: reader.prepare<[string]>('SELECT * FROM "ContextItem" WHERE "nodeId" = ? ORDER BY "createdAt" ASC'),
    childDependencies: reader.prepare<[string, string], Pick<Dependency, 'nodeId' | 'dependsOnId'>>(
      'SELECT d."nodeId", d."dependsOnId" FROM "Dependency" d JOIN "Node" a ON a."id" = d."nodeId" ' +
        'JOIN "Node" b ON b."id" = d."dependsOnId" WHERE a."parentId" = ? AND b."parentId" = ?',
    ),
    waitingOn: reader.prepare<[string]>(
      `SELECT * FROM "AgentRun" WHERE "status" = 'WAITING_FOR_DEPENDENCIES' AND "mapId" = ? ORDER BY "createdAt" ASC`,
    ),
    waiting: reader.prepare(
      `SELECT * FROM "AgentRun" WHERE "status" = 'WAITING_FOR_DEPENDENCIES' ORDER BY "createdAt" ASC`,
    ),
  };
  const nodeById = (id: string) => {
    const row = s.node.get(id);
    return row === undefined ? null : asNode(row);
  };
  // One read transaction: every statement sees the same commit.
  const neighbourhood = reader.transaction((nodeId: string): NodeNeighbourhoodRead | null => {
    const node = nodeById(nodeId);
    if (!node) return null;
    const children = s.children.all(nodeId).map(asNode);
    return {
      node: {
        ...node,
        map: asMap(s.map.get(node.mapId)),
        parent: node.parentId ? nodeById(node.parentId) : null,
        dependencies: s.dependencies.all(nodeId).map((row) => {
          const dependency = asDependency(row);
          return { ...dependency, dependsOn: nodeById(dependency.dependsOnId)! };
        }),
        children,
        contextItems: s.contextItems.all(nodeId).map(asContextItem),
      },
      childDependencies: children.length ? s.childDependencies.all(nodeId, nodeId) : [],
    };
  });
  return {
    async nodeMapId(nodeId) {
      return s.nodeMapId.get(nodeId) ?? null;
    },
    async neighbourhood(nodeId) {
      return neighbourhood(nodeId);
    },
    async question(questionId) {
      const row = s.question.get(questionId);
      return row === undefined ? null : asQuestion(row);
    },
    async waitingRuns(mapId) {
      return (mapId ? s.waitingOn.all(mapId) : s.waiting.all()).map(asRun);
    },
  };
}

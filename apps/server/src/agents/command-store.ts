import {
  AgentError,
  type ConversationKind,
  type ConversationTail,
  type CreateNodeInput,
  type DependencyRecord,
  type Idempotent,
  type MapRecord,
  type MapUnderstanding,
  type MessageRecord,
  type NodeNeighbourhood,
  type NodeRecord,
  type PostMessageInput,
  type StorePort,
} from '@thinkingmap/agent-core';
import type { Database, Node, User } from '@thinkingmap/db';
import { setConclusion } from '../commands/conclusion-commands.ts';
import type { CommandContext } from '../commands/context.ts';
import { postMessage } from '../commands/conversation-commands.ts';
import { addDependency } from '../commands/dependency-commands.ts';
import { updateMap } from '../commands/map-commands.ts';
import { createNode, updateNode } from '../commands/node-commands.ts';
import { setNodeState } from '../commands/node-state-commands.ts';
import { CycleError, DomainError, NotFoundError } from '../errors/domain-errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent } from '../events/map-event.ts';
import { toContextItemRecord, toMapRecord, toMessageRecord, toNodeRecord } from './records.ts';
import type { RunOutbox } from './run-outbox.ts';

/** Turns a refused command into the agent error the graphs understand. */
function asAgentError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  if (error instanceof NotFoundError) return new AgentError('NODE_NOT_FOUND', error.message);
  if (error instanceof CycleError) return new AgentError('CYCLE', error.message);
  return new AgentError('INVALID_INPUT', error.message);
}

/**
 * The agents' StorePort: reads straight from the database, writes through the same commands as the
 * GraphQL mutations (validated, one transaction, sequenced events), acting as the map's owner. A write
 * with an idempotency key runs once; LangGraph re-running a step after a resume writes nothing twice.
 */
export class CommandStore implements StorePort {
  constructor(
    private readonly deps: {
      db: Database;
      bus: EventBus;
      owner: User;
      outbox: RunOutbox;
      onCommitted?: (events: readonly MapEvent[]) => void;
    },
  ) {}

  private async command<T>(key: string | undefined, run: (ctx: CommandContext) => Promise<T>): Promise<T> {
    await this.deps.outbox.flush();
    const { db, bus, owner, onCommitted } = this.deps;
    try {
      return await run({ db, bus, viewer: owner, onCommitted, ...(key ? { idempotencyKey: key } : {}) });
    } catch (error) {
      throw asAgentError(error);
    }
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  async readMap(mapId: string): Promise<MapRecord> {
    const map = await this.prisma.map.findUnique({ where: { id: mapId } });
    if (!map) throw new AgentError('NODE_NOT_FOUND', `map ${mapId} was not found`);
    return toMapRecord(map);
  }

  async readNode(nodeId: string): Promise<NodeNeighbourhood> {
    const node = await this.prisma.node.findUnique({
      where: { id: nodeId },
      include: {
        map: true,
        parent: true,
        dependencies: { include: { dependsOn: true } },
        children: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
        contextItems: { orderBy: { createdAt: 'asc' } },
      },
    });
    if (!node) throw new AgentError('NODE_NOT_FOUND', `node ${nodeId} was not found`);
    const childIds = node.children.map((c) => c.id);
    const childDependencies = await this.prisma.dependency.findMany({
      where: { nodeId: { in: childIds }, dependsOnId: { in: childIds } },
      select: { nodeId: true, dependsOnId: true },
    });
    const tree = await this.prisma.node.findMany({
      where: { mapId: node.mapId },
      select: { id: true, parentId: true },
    });
    const parentOf = new Map(tree.map((n) => [n.id, n.parentId]));
    let depth = 0;
    for (let at = node.parentId; at; at = parentOf.get(at) ?? null) depth++;
    return {
      map: toMapRecord(node.map),
      node: toNodeRecord(node),
      depth,
      parent: node.parent ? toNodeRecord(node.parent) : null,
      dependencies: node.dependencies.map((d) => toNodeRecord(d.dependsOn)),
      children: node.children.map(toNodeRecord),
      childDependencies,
      contextItems: node.contextItems.map(toContextItemRecord),
    };
  }

  async readConversation(nodeId: string, conversation: ConversationKind, limit: number): Promise<ConversationTail> {
    const where = { conversation: { nodeId, kind: conversation }, deletedAt: null };
    const [latest, total, first] = await Promise.all([
      this.prisma.message.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),
      this.prisma.message.count({ where }),
      this.prisma.message.findFirst({ where, orderBy: { createdAt: 'asc' }, select: { createdAt: true } }),
    ]);
    const messages = latest.reverse().map((m) => toMessageRecord(m, nodeId, conversation));
    return {
      messages,
      total,
      firstAt: first?.createdAt ?? null,
      lastAt: latest.length ? (messages.at(-1)?.createdAt ?? null) : null,
    };
  }

  async updateMap(mapId: string, understanding: MapUnderstanding & Idempotent): Promise<MapRecord> {
    const { idempotencyKey, ...fields } = understanding;
    const map = await this.command(idempotencyKey, (ctx) => updateMap(ctx, { id: mapId, ...fields }));
    return toMapRecord(map);
  }

  async createNode(input: CreateNodeInput): Promise<NodeRecord> {
    const { idempotencyKey, ...fields } = input;
    const node = await this.command(idempotencyKey, (ctx) =>
      createNode(ctx, { ...fields, constraints: fields.constraints ?? [] }),
    );
    return toNodeRecord(node);
  }

  async updateNode(
    nodeId: string,
    patch: { question?: string; goal?: string; constraints?: string[] } & Idempotent,
  ): Promise<NodeRecord> {
    const { idempotencyKey, ...fields } = patch;
    const node = await this.command(idempotencyKey, async (ctx) => {
      const current = await this.prisma.node.findUniqueOrThrow({ where: { id: nodeId }, select: { version: true } });
      return updateNode(ctx, { id: nodeId, expectedVersion: current.version, ...fields });
    });
    return toNodeRecord(node);
  }

  async concludeNode(
    nodeId: string,
    conclusion: { text: string; kind: NonNullable<Node['conclusionKind']> } & Idempotent,
  ): Promise<NodeRecord> {
    const node = await this.command(conclusion.idempotencyKey, (ctx) =>
      setConclusion(ctx, { nodeId, conclusion: conclusion.text, kind: conclusion.kind }),
    );
    return toNodeRecord(node);
  }

  async addDependency(nodeId: string, dependsOnId: string, options: Idempotent = {}): Promise<DependencyRecord> {
    const dependency = await this.command(options.idempotencyKey, (ctx) => addDependency(ctx, { nodeId, dependsOnId }));
    return { nodeId: dependency.nodeId, dependsOnId: dependency.dependsOnId };
  }

  async postMessage(input: PostMessageInput): Promise<MessageRecord> {
    const { idempotencyKey, sources, metadata, ...fields } = input;
    const message = await this.command(idempotencyKey, (ctx) =>
      postMessage(ctx, { ...fields, metadata: { ...metadata, ...(sources ? { sources } : {}) } }),
    );
    return toMessageRecord(message, input.nodeId, input.conversation);
  }

  async setNodeStatus(nodeId: string, status: Node['status'], reason?: string): Promise<void> {
    await this.command(undefined, (ctx) => setNodeState(ctx, { nodeId, status, reason }));
  }

  async setNodeIntent(nodeId: string, intent: NonNullable<Node['intent']>): Promise<void> {
    await this.command(undefined, (ctx) => setNodeState(ctx, { nodeId, intent }));
  }

  async setNodeStrategy(nodeId: string, strategy: NonNullable<Node['strategy']>): Promise<void> {
    await this.command(undefined, (ctx) => setNodeState(ctx, { nodeId, strategy }));
  }
}

import {
  AgentError,
  type ConversationKind,
  type ConversationTail,
  type CreateDivergentNodeInput,
  type CreateNodeInput,
  type CriticScope,
  type CriticStorePort,
  countByRole,
  type DecisionInput,
  type DependencyRecord,
  type DivergentStorePort,
  type Idempotent,
  type MapRecord,
  type MapUnderstanding,
  type MessageRecord,
  type NodeNeighbourhood,
  type NodeRecord,
  type PostMessageInput,
  type StorePort,
  type SuggestionInput,
} from '@thinkingmap/agent-core';
import type { Database, Node, User } from '@thinkingmap/db';
import type { CarriedWork, CommandContext, RunActor } from '../commands/context.ts';
import { CycleError, DomainError, NotFoundError } from '../commands/domain-errors.ts';
import { parseInput } from '../commands/input.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { postSuggestions, readCriticScope } from '../critic/suggestion-commands.ts';
import { recordCompletionScore } from '../divergent/divergent-commands.ts';
import type { EventBus } from '../events/event-bus.ts';
import { concludeIn, setConclusion, setConclusionInput } from '../maps/conclusion-commands.ts';
import { postMessage, postMessageIn, postMessageInput } from '../maps/conversation-commands.ts';
import { addDependency } from '../maps/dependency-commands.ts';
import { updateMap } from '../maps/map-commands.ts';
import { createNode, updateNode } from '../maps/node-commands.ts';
import { parseNodeState, recordNodeState } from '../maps/node-state-commands.ts';
import { toContextItemRecord, toMapRecord, toMessageRecord, toNodeRecord } from '../maps/records.ts';
import { parseDecision, recordDecision } from './decisions.ts';
import type { RunOutbox } from './run-outbox.ts';

/** Turns a refused command into the agent error the graphs understand. */
function asAgentError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  if (error instanceof NotFoundError) return new AgentError('NODE_NOT_FOUND', error.message);
  if (error instanceof CycleError) return new AgentError('CYCLE', error.message);
  return new AgentError('INVALID_INPUT', error.message);
}

/** An agent's message as the `postMessage` command takes it: its sources kept in its metadata. */
function messageCommand({ idempotencyKey: _key, sources, metadata, ...fields }: PostMessageInput) {
  return { ...fields, metadata: { ...metadata, ...(sources ? { sources } : {}) } };
}

/**
 * The agents' StorePort: reads straight from the database, writes through the same commands as the
 * GraphQL mutations (validated, one transaction, sequenced events), acting as the map's owner. A write
 * with an idempotency key runs once; LangGraph re-running a step after a resume writes nothing twice.
 */
export class CommandStore implements StorePort, DivergentStorePort, CriticStorePort {
  readonly #neighbourhoods = new Map<string, { seq: number; hood: NodeNeighbourhood }>();

  constructor(
    private readonly deps: {
      db: Database;
      bus: EventBus;
      owner: Pick<User, 'id'>;
      /** The run's map: every read and write of the run is on it. */
      mapId: string;
      outbox: RunOutbox;
      onCommitted?: (events: readonly MapEvent[]) => void;
      /** The run acting, recorded on its changes (the map's history). */
      actor?: RunActor;
    },
  ) {}

  private async command<T>(key: string | undefined, run: (ctx: CommandContext) => Promise<T>): Promise<T> {
    const { db, bus, owner, onCommitted, outbox, actor } = this.deps;
    try {
      // The run's progress so far is written first, so the map's log keeps the order in which things happened.
      await outbox.flush();
      return await run({ db, bus, viewer: owner, onCommitted, actor, ...(key ? { idempotencyKey: key } : {}) });
    } catch (error) {
      throw asAgentError(error);
    }
  }

  /** Everything the run reads, as committed: the one interface agents read through. */
  private get read() {
    return this.deps.db.agentReads;
  }

  async readMap(mapId: string): Promise<MapRecord> {
    const map = await this.read.map(mapId);
    if (!map) throw new AgentError('NODE_NOT_FOUND', `map ${mapId} was not found`);
    return toMapRecord(map);
  }

  /**
   * Reads a node with everything around it. A run reads the same neighbourhood several times between its
   * writes (collecting context, checking dependencies); every change to a map moves its `lastSeq` (all of
   * them go through `mutateMap`), so a neighbourhood read at the map's current `lastSeq` is served again
   * for the price of reading that one number (through the lean map-version probe, not the ORM).
   */
  async readNode(nodeId: string): Promise<NodeNeighbourhood> {
    const { mapId } = this.deps;
    const seq = (await this.read.mapVersion(mapId))?.lastSeq;
    const cached = this.#neighbourhoods.get(nodeId);
    if (cached && cached.seq === seq) return cached.hood;
    const hood = await this.#readNeighbourhood(nodeId);
    if (seq !== undefined && hood.map.id === mapId) this.#neighbourhoods.set(nodeId, { seq, hood });
    return hood;
  }

  async #readNeighbourhood(nodeId: string): Promise<NodeNeighbourhood> {
    const read = await this.read.neighbourhood(nodeId);
    if (!read) throw new AgentError('NODE_NOT_FOUND', `node ${nodeId} was not found`);
    const { node, childDependencies } = read;
    return {
      map: toMapRecord(node.map),
      node: toNodeRecord(node),
      depth: node.parent ? 1 + (await this.#depthOf(node.parent.parentId)) : 0,
      parent: node.parent ? toNodeRecord(node.parent) : null,
      dependencies: node.dependencies.map((d) => toNodeRecord(d.dependsOn)),
      children: node.children.map(toNodeRecord),
      childDependencies,
      contextItems: node.contextItems.map(toContextItemRecord),
    };
  }

  /** How many ancestors a node with this parent has above it, walking up one id at a time (trees are shallow). */
  async #depthOf(parentId: string | null): Promise<number> {
    let depth = 0;
    for (let at = parentId; at; depth++) {
      at = (await this.read.nodeLink(at))?.parentId ?? null;
    }
    return depth;
  }

  async readConversation(nodeId: string, conversation: ConversationKind, limit: number): Promise<ConversationTail> {
    const latest = await this.read.latestMessages(nodeId, conversation, limit);
    const messages = latest.reverse().map((m) => toMessageRecord(m, nodeId, conversation));
    // A tail shorter than asked for is the whole conversation; only a full one needs counting (by role).
    const byRole =
      latest.length < limit
        ? countByRole(latest.map((m) => m.role))
        : countByRole(await this.read.messageCounts(nodeId, conversation));
    const total = Object.values(byRole).reduce((sum, n) => sum + n, 0);
    const first =
      total > latest.length ? await this.read.firstMessageAt(nodeId, conversation) : (messages[0]?.createdAt ?? null);
    return {
      messages,
      total,
      byRole,
      firstAt: first,
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

  async createDivergentNode(input: CreateDivergentNodeInput): Promise<NodeRecord> {
    const { idempotencyKey, role, level, ...fields } = input;
    const node = await this.command(idempotencyKey, (ctx) =>
      createNode(ctx, { ...fields, constraints: fields.constraints ?? [] }, { role, level }),
    );
    return toNodeRecord(node);
  }

  async recordCompletionScore(nodeId: string, score: number, options: Idempotent = {}): Promise<void> {
    await this.command(options.idempotencyKey, (ctx) => recordCompletionScore(ctx, { nodeId, score }));
  }

  async updateNode(
    nodeId: string,
    patch: { question?: string; goal?: string; constraints?: string[] } & Idempotent,
  ): Promise<NodeRecord> {
    const { idempotencyKey, ...fields } = patch;
    const node = await this.command(idempotencyKey, async (ctx) => {
      const current = await this.read.nodeLink(nodeId);
      if (!current) throw new NotFoundError('Node', nodeId);
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
    const message = await this.command(input.idempotencyKey, (ctx) => postMessage(ctx, messageCommand(input)));
    return toMessageRecord(message, input.nodeId, input.conversation);
  }

  async queueMessage(input: PostMessageInput): Promise<void> {
    const message = this.#checked(() => parseInput(postMessageInput, messageCommand(input)));
    this.#deferCommand(input.idempotencyKey, (tx, emit, map) =>
      postMessageIn(this.deps.db.runLog, tx, emit, map.id, message),
    );
  }

  async queueConclusion(
    nodeId: string,
    conclusion: { text: string; kind: NonNullable<Node['conclusionKind']> } & Idempotent,
  ): Promise<void> {
    const input = this.#checked(() =>
      parseInput(setConclusionInput, { nodeId, conclusion: conclusion.text, kind: conclusion.kind }),
    );
    this.#deferCommand(conclusion.idempotencyKey, (tx, emit, map) =>
      concludeIn(this.deps.db.runLog, tx, emit, map, input),
    );
  }

  /** Checks a write's input now, refusing it as the graphs understand. */
  #checked<T>(parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      throw asAgentError(error);
    }
  }

  /**
   * A command of the run written with its progress (the outbox's next write), once per idempotency key like any
   * command of the run (its receipt, stored first: a key already stored skips it), so a step re-run after a restart
   * writes nothing twice. A refusal there (the node was deleted meanwhile) is skipped, its receipt kept: nothing is left
   * to write, and the progress written with it must not fail.
   */
  #deferCommand(key: string | undefined, work: (...args: Parameters<CarriedWork>) => Promise<unknown>): void {
    const { mapLog } = this.deps.db;
    this.deps.outbox.defer(async (tx, emit, map) => {
      if (key && !(await mapLog.storeReceipt(tx, key, null))) return;
      try {
        await work(tx, emit, map);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    });
  }

  /**
   * The agent's state on a node (status, intent, strategy) is progress, like its step events: checked now, written
   * with the run's other progress (before its next command, or within moments). A node deleted meanwhile is skipped.
   */
  #defer(raw: Parameters<typeof parseNodeState>[0]): void {
    const input = this.#checked(() => parseNodeState(raw));
    this.deps.outbox.defer((tx, emit, map) => recordNodeState(this.deps.db.runLog, tx, emit, map.id, input));
  }

  async setNodeStatus(nodeId: string, status: Node['status'], reason?: string): Promise<void> {
    this.#defer({ nodeId, status, reason });
  }

  async setNodeIntent(nodeId: string, intent: NonNullable<Node['intent']>): Promise<void> {
    this.#defer({ nodeId, intent });
  }

  async setNodeStrategy(nodeId: string, strategy: NonNullable<Node['strategy']>): Promise<void> {
    this.#defer({ nodeId, strategy });
  }

  /** A decision of the run is recorded like its state on a node: with its progress. */
  async recordDecision(raw: DecisionInput): Promise<void> {
    const decision = this.#checked(() => parseDecision(raw));
    this.deps.outbox.defer((tx, emit, map) => recordDecision(this.deps.db.runLog, tx, emit, map.id, decision));
  }

  /** The critic's scope: the map and the subtree under `nodeId`, with node versions. */
  async readScope(mapId: string, nodeId: string | null): Promise<CriticScope> {
    return readCriticScope(this.read, mapId, nodeId);
  }

  /** Posts a critic run's suggestions in one command on the run's map. */
  async postSuggestions(runId: string, suggestions: SuggestionInput[], options: Idempotent = {}): Promise<string[]> {
    return this.command(options.idempotencyKey, (ctx) => postSuggestions(ctx, this.deps.mapId, runId, suggestions));
  }
}

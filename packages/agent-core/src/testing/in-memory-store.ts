import { byPosition, childrenByParent, depthOf, findCycle } from '@thinkingmap/map-graph';
import { countByRole } from '../conversation/count-by-role.ts';
import type { DecompositionStrategy, NodeIntent, NodeStatus } from '../domain/enums.ts';
import type { ContextItemRecord, DependencyRecord, MapRecord, MessageRecord, NodeRecord } from '../domain/records.ts';
import { AgentError } from '../errors/agent-error.ts';
import type { CreateDivergentNodeInput, DivergentStorePort } from '../ports/divergent-store-port.ts';
import type {
  ConversationTail,
  CreateNodeInput,
  DecisionInput,
  Idempotent,
  NodeNeighbourhood,
  PostMessageInput,
  StorePort,
} from '../ports/store-port.ts';

/**
 * A {@link StorePort} held in memory, for tests and demos. It honours idempotency keys, refuses cycles with
 * `@thinkingmap/map-graph`, and records every write in `log` so tests can assert what an agent changed.
 */
export class InMemoryStore implements StorePort, DivergentStorePort {
  readonly maps = new Map<string, MapRecord>();
  readonly nodes = new Map<string, NodeRecord>();
  readonly dependencies: DependencyRecord[] = [];
  readonly messages: MessageRecord[] = [];
  readonly contextItems = new Map<string, ContextItemRecord[]>();
  /** Decisions recorded, in order, once per run and key. */
  readonly decisions: DecisionInput[] = [];
  /** Every write, in order: `createNode q`, `setNodeStatus id BLOCKED`, … */
  readonly log: string[] = [];
  private readonly keys = new Map<string, unknown>();
  private sequence = 0;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  /** Creates a map and returns it; the test's starting point. */
  addMap(fields: Partial<MapRecord> & { problem: string }): MapRecord {
    const map: MapRecord = {
      id: this.id('map'),
      title: fields.problem.slice(0, 40),
      goal: '',
      constraints: [],
      language: 'en',
      tokenBudgetLeft: null,
      ...fields,
    };
    this.maps.set(map.id, map);
    return map;
  }

  /** Attaches a context item to a node. */
  addContextItem(nodeId: string, title: string, content: string): void {
    const list = this.contextItems.get(nodeId) ?? [];
    list.push({ id: this.id('ctx'), title, content, createdAt: this.now() });
    this.contextItems.set(nodeId, list);
  }

  async readMap(mapId: string): Promise<MapRecord> {
    const map = this.maps.get(mapId);
    if (!map) throw new AgentError('NODE_NOT_FOUND', `map ${mapId} not found`);
    return { ...map };
  }

  async readNode(nodeId: string): Promise<NodeNeighbourhood> {
    const node = this.node(nodeId);
    const children = this.childrenOf(nodeId);
    const childIds = new Set(children.map((c) => c.id));
    return {
      map: await this.readMap(node.mapId),
      node: { ...node },
      depth: depthOf([...this.nodes.values()], node.id),
      parent: node.parentId ? { ...this.node(node.parentId) } : null,
      dependencies: this.dependencies.filter((d) => d.nodeId === nodeId).map((d) => ({ ...this.node(d.dependsOnId) })),
      children,
      childDependencies: this.dependencies.filter((d) => childIds.has(d.nodeId)),
      contextItems: [...(this.contextItems.get(nodeId) ?? [])],
    };
  }

  async readConversation(
    nodeId: string,
    conversation: MessageRecord['conversation'],
    limit: number,
  ): Promise<ConversationTail> {
    const all = this.messages.filter((m) => m.nodeId === nodeId && m.conversation === conversation);
    return {
      messages: all.slice(-limit),
      total: all.length,
      byRole: countByRole(all.map((m) => m.role)),
      firstAt: all[0]?.createdAt ?? null,
      lastAt: all.at(-1)?.createdAt ?? null,
    };
  }

  async updateMap(mapId: string, understanding: Parameters<StorePort['updateMap']>[1]): Promise<MapRecord> {
    return this.once(understanding, () => {
      const { idempotencyKey: _, ...fields } = understanding;
      this.maps.set(mapId, { ...this.maps.get(mapId)!, ...fields });
      this.log.push(`updateMap ${mapId}`);
      return { ...this.maps.get(mapId)! };
    });
  }

  async createNode(input: CreateNodeInput): Promise<NodeRecord> {
    return this.once(input, () => {
      if (input.parentId) this.node(input.parentId);
      const node: NodeRecord = {
        id: this.id('node'),
        mapId: input.mapId,
        parentId: input.parentId,
        position: input.parentId ? this.childrenOf(input.parentId).length : 0,
        question: input.question,
        goal: input.goal,
        constraints: input.constraints ?? [],
        type: input.parentId ? 'TASK' : 'ROOT',
        status: 'PENDING',
        intent: null,
        strategy: null,
        conclusion: null,
        conclusionKind: null,
      };
      this.nodes.set(node.id, node);
      this.log.push(`createNode ${node.question}`);
      return { ...node };
    });
  }

  async createDivergentNode(input: CreateDivergentNodeInput): Promise<NodeRecord> {
    const { role, level, ...fields } = input;
    const created = await this.createNode(fields);
    return this.once({ idempotencyKey: input.idempotencyKey && `${input.idempotencyKey}:role` }, () => {
      Object.assign(this.node(created.id), { divergentRole: role, divergentLevel: level });
      return { ...this.node(created.id) };
    });
  }

  async recordCompletionScore(nodeId: string, score: number, options: Idempotent = {}): Promise<void> {
    await this.once(options, () => {
      this.node(nodeId).completionScore = score;
      this.log.push(`recordCompletionScore ${nodeId} ${score}`);
    });
  }

  async updateNode(nodeId: string, patch: Parameters<StorePort['updateNode']>[1]): Promise<NodeRecord> {
    return this.once(patch, () => {
      const { idempotencyKey: _, ...fields } = patch;
      Object.assign(this.node(nodeId), fields);
      this.log.push(`updateNode ${nodeId}`);
      return { ...this.node(nodeId) };
    });
  }

  async concludeNode(nodeId: string, conclusion: Parameters<StorePort['concludeNode']>[1]): Promise<NodeRecord> {
    return this.once(conclusion, () => {
      Object.assign(this.node(nodeId), {
        conclusion: conclusion.text,
        conclusionKind: conclusion.kind,
        status: 'COMPLETED',
      });
      this.log.push(`concludeNode ${nodeId} ${conclusion.kind}`);
      return { ...this.node(nodeId) };
    });
  }

  async addDependency(nodeId: string, dependsOnId: string, options: Idempotent = {}): Promise<DependencyRecord> {
    return this.once(options, () => {
      const a = this.node(nodeId);
      const b = this.node(dependsOnId);
      if (a.parentId !== b.parentId) throw new AgentError('INVALID_INPUT', 'dependencies link siblings only');
      const cycle = findCycle(this.dependencies, { nodeId, dependsOnId });
      if (cycle) throw new AgentError('CYCLE', `dependency would close a cycle: ${cycle.join(' → ')}`);
      const edge = { nodeId, dependsOnId };
      this.dependencies.push(edge);
      this.log.push(`addDependency ${a.question} -> ${b.question}`);
      return edge;
    });
  }

  async postMessage(input: PostMessageInput): Promise<MessageRecord> {
    return this.once(input, () => {
      this.node(input.nodeId);
      const metadata = input.sources ? { ...input.metadata, sources: input.sources } : (input.metadata ?? null);
      const message: MessageRecord = {
        id: this.id('msg'),
        nodeId: input.nodeId,
        conversation: input.conversation,
        parentId: input.parentId ?? null,
        role: input.role,
        kind: input.kind,
        content: input.content,
        metadata,
        createdAt: this.now(),
      };
      this.messages.push(message);
      this.log.push(`postMessage ${input.kind} ${input.content.slice(0, 30)}`);
      return { ...message };
    });
  }

  /** Written at once: in memory there is no write to share. */
  async queueMessage(input: PostMessageInput): Promise<void> {
    await this.postMessage(input);
  }

  /** Written at once, like {@link queueMessage}. */
  async queueConclusion(nodeId: string, conclusion: Parameters<StorePort['concludeNode']>[1]): Promise<void> {
    await this.concludeNode(nodeId, conclusion);
  }

  async setNodeStatus(nodeId: string, status: NodeStatus, reason?: string): Promise<void> {
    this.node(nodeId).status = status;
    this.log.push(`setNodeStatus ${nodeId} ${status}${reason ? ` ${reason}` : ''}`);
  }

  async setNodeIntent(nodeId: string, intent: NodeIntent): Promise<void> {
    this.node(nodeId).intent = intent;
    this.log.push(`setNodeIntent ${nodeId} ${intent}`);
  }

  async setNodeStrategy(nodeId: string, strategy: DecompositionStrategy): Promise<void> {
    this.node(nodeId).strategy = strategy;
    this.log.push(`setNodeStrategy ${nodeId} ${strategy}`);
  }

  async recordDecision(decision: DecisionInput): Promise<void> {
    if (this.decisions.some((d) => d.runId === decision.runId && d.key === decision.key)) return;
    this.decisions.push({ ...decision });
    this.log.push(`recordDecision ${decision.nodeId} ${decision.kind} ${decision.decidedBy}`);
  }

  /** Children of a node in sibling order (copies). */
  childrenOf(nodeId: string): NodeRecord[] {
    return (childrenByParent([...this.nodes.values()], byPosition).get(nodeId) ?? []).map((n) => ({ ...n }));
  }

  private node(nodeId: string): NodeRecord {
    const node = this.nodes.get(nodeId);
    if (!node) throw new AgentError('NODE_NOT_FOUND', `node ${nodeId} not found`);
    return node;
  }

  private once<T>(input: Idempotent, write: () => T): T {
    if (input.idempotencyKey && this.keys.has(input.idempotencyKey)) return this.keys.get(input.idempotencyKey) as T;
    const result = write();
    if (input.idempotencyKey) this.keys.set(input.idempotencyKey, result);
    return result;
  }

  private id(prefix: string): string {
    this.sequence += 1;
    return `${prefix}-${this.sequence}`;
  }

  private now(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }
}

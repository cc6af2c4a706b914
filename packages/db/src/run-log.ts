import type { AgentQuestion, AgentRun, Node, Prisma } from '../generated/sqlite/client.ts';
import type { ConversationKind, DecisionKind, QuestionStatus } from '../generated/sqlite/enums.ts';
import { type DependedOnNode, dependenciesOf } from './agent-reads.ts';
import type { Tx } from './database.ts';
import { ACTIVE_RUN_STATUSES } from './enums.ts';
import { jsonColumn } from './json.ts';

/** A question's status and kind, and its run's status (whether it can still be answered). */
export type QuestionState = Pick<AgentQuestion, 'status' | 'kind'> & { runStatus: AgentRun['status'] };

/** Where an agent stands with a node, and the node's map. */
export type NodeAgentState = Pick<Node, 'mapId' | 'status' | 'intent' | 'strategy'>;

/**
 * A change of where an agent is with a node: the fields given are set (`statusReason` may be null; the others,
 * when given, are not), the others kept.
 */
export type NodeStateChange = Partial<Pick<Node, 'status' | 'statusReason' | 'intent' | 'strategy'>>;

/** A node's conversation, its node's map and the latest message a new one answers (null when there is none). */
export interface ConversationTip {
  id: string;
  mapId: string;
  latestMessageId: string | null;
}

/** Tokens a drive spent that no ledger recorded yet (added to its run's). */
export interface RunTokens {
  promptTokens: number;
  completionTokens: number;
  /** True when some of them were counted locally (the endpoint reported no usage): the run is marked so. */
  estimated?: boolean;
}

/** The run's `tokensEstimated` set when `spent` was estimated (never cleared: one estimate makes the sum one). */
const estimatedOf = (spent: RunTokens) => (spent.estimated ? { tokensEstimated: true } : {});

/** A run on a node, as a new run on it checks it (busy, or paused on a gate it replaces). */
export type NodeRun = Pick<AgentRun, 'id' | 'mapId' | 'agent' | 'status'>;

/**
 * The few columns an agent run's writes look up and change, inside the caller's write transaction: the run's
 * progress (its state on a node, its decisions), its questions, and every settle's check of the run's status. The
 * same Prisma calls on both databases.
 */
export interface RunLog {
  /** A node's map and its agent state (status, intent, strategy); null when there is no such node. */
  nodeState(tx: Tx, nodeId: string): Promise<NodeAgentState | null>;
  /**
   * A run's map, its node (null once deleted) and whether it recorded a decision under `key`; null when there is no
   * such run.
   */
  runDecision(
    tx: Tx,
    runId: string,
    key: string,
  ): Promise<{ mapId: string; nodeId: string | null; decided: boolean } | null>;
  /** A run's status; null when there is no such run. */
  runStatus(tx: Tx, runId: string): Promise<AgentRun['status'] | null>;
  /** Whether a run already stored the question it asked at this interrupt. */
  hasQuestion(tx: Tx, runId: string, interruptId: string): Promise<boolean>;
  /** A question's status and kind with its run's status; null when there is no such question. */
  questionState(tx: Tx, questionId: string): Promise<QuestionState | null>;
  /**
   * The threads of a map's finished (completed or failed) runs after the latest `skip` of them, latest first,
   * at most `take`.
   */
  finishedThreads(tx: Tx, mapId: string, skip: number, take: number): Promise<string[]>;
  /**
   * A node's conversation of `kind` with the node's map and its latest message not deleted (by time, then id), as a
   * new message answers it, in one read; null when there is no such conversation.
   */
  conversation(tx: Tx, nodeId: string, kind: ConversationKind): Promise<ConversationTip | null>;
  /** The nodes that depend on a node. */
  dependentsOf(tx: Tx, nodeId: string): Promise<string[]>;
  /** The nodes a node depends on, in their order among their siblings. */
  dependenciesOf(tx: Tx, nodeId: string): Promise<DependedOnNode[]>;
  /** The runs on a node that are active or paused (see `ACTIVE_RUN_STATUSES`). */
  activeOrPausedRuns(tx: Tx, nodeId: string): Promise<NodeRun[]>;
  /** How many questions of a run still wait for an answer. */
  pendingQuestions(tx: Tx, runId: string): Promise<number>;
  /** What the model chose in its latest decision of `kind` on a node (its `choice`); null when it made none. */
  latestModelChoice(tx: Tx, nodeId: string, kind: DecisionKind): Promise<unknown>;
  /**
   * Changes a node's agent state (`updatedAt` too, not its version) when one of the status, intent and strategy given
   * differs from the node's (a `statusReason` given goes with them), in one statement; returns the node as it now is,
   * null when nothing differed or the map holds no such node.
   */
  changeNodeState(tx: Tx, nodeId: string, mapId: string, change: NodeStateChange): Promise<Node | null>;
  /**
   * Records how a drive of a run ended when nothing reads the run back (a pause): its status, the tokens it spent
   * added to its own, and none of its map's budget held any more. A run the person cancelled (or one gone) is left as
   * it is: false then.
   */
  settleRunRow(tx: Tx, runId: string, status: AgentRun['status'], spent: RunTokens): Promise<boolean>;
  /** A node as it is in the transaction; null when there is none. */
  node(tx: Tx, nodeId: string): Promise<Node | null>;
  /**
   * Moves a question whose status is one of `from` to `change.status` (with its answer time and reply when given) and
   * returns it as it now is; null when it was in no status of `from`.
   */
  resolveQuestion(
    tx: Tx,
    questionId: string,
    from: readonly QuestionStatus[],
    change: QuestionChange,
  ): Promise<AgentQuestion | null>;
  /**
   * A run after one of its questions was answered: RUNNING again when `running` (driven by `owner`, the instance that
   * resumes it, whose lease refreshes check it), else as it is; null when none.
   */
  resumedRun(tx: Tx, runId: string, running: boolean, owner: RunOwnerColumns): Promise<AgentRun | null>;
  /**
   * Records how a run ended (`end`: its status and the fields of that end), the tokens its last drive spent added to
   * its own and none of its map's budget held any more; returns the run as it now is. A run the person cancelled (or
   * one gone) is left as it is: null then.
   */
  endRun(tx: Tx, runId: string, end: RunEnd, spent: RunTokens): Promise<AgentRun | null>;
}

/** The instance and boot that drive a run (see the run's `ownerInstance`, `ownerBoot`). */
export interface RunOwnerColumns {
  ownerInstance: string;
  ownerBoot: string;
}

/** A question's new status, with when and how it was answered. */
export interface QuestionChange {
  status: QuestionStatus;
  answeredAt?: Date;
  reply?: Prisma.InputJsonValue;
}

/** How a run ended: its status and, as the end has them, its output, error and finish time. */
export interface RunEnd {
  status: AgentRun['status'];
  output?: unknown;
  error?: string | null;
  errorCode?: string | null;
  raw?: string | null;
  finishedAt?: Date;
}

/** The statuses of {@link RunLog.activeOrPausedRuns}. */
const ACTIVE_OR_PAUSED = [...ACTIVE_RUN_STATUSES, 'PAUSED'] as const;

const FINISHED = ['COMPLETED', 'FAILED'] as const;

/** The run log: its statements take the write transaction they run in. */
export const runLog: RunLog = {
  nodeState: (tx, nodeId) =>
    tx.node.findUnique({
      where: { id: nodeId },
      select: { mapId: true, status: true, intent: true, strategy: true },
    }),
  async runDecision(tx, runId, key) {
    const run = await tx.agentRun.findUnique({
      where: { id: runId },
      select: { mapId: true, nodeId: true, decisions: { where: { key }, select: { id: true }, take: 1 } },
    });
    return run ? { mapId: run.mapId, nodeId: run.nodeId, decided: run.decisions.length > 0 } : null;
  },
  async runStatus(tx, runId) {
    return (await tx.agentRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? null;
  },
  async hasQuestion(tx, runId, interruptId) {
    const where = { runId_interruptId: { runId, interruptId } };
    return (await tx.agentQuestion.findUnique({ where, select: { id: true } })) !== null;
  },
  async questionState(tx, questionId) {
    const question = await tx.agentQuestion.findUnique({
      where: { id: questionId },
      select: { status: true, kind: true, run: { select: { status: true } } },
    });
    return question ? { status: question.status, kind: question.kind, runStatus: question.run.status } : null;
  },
  async finishedThreads(tx, mapId, skip, take) {
    const runs = await tx.agentRun.findMany({
      where: { mapId, status: { in: [...FINISHED] } },
      orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
      skip,
      take,
      select: { threadId: true },
    });
    return runs.map((r) => r.threadId);
  },
  async conversation(tx, nodeId, kind) {
    const conversation = await tx.conversation.findUnique({
      where: { nodeId_kind: { nodeId, kind } },
      select: {
        id: true,
        node: { select: { mapId: true } },
        messages: {
          where: { deletedAt: null },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: 1,
          select: { id: true },
        },
      },
    });
    if (!conversation) return null;
    const { id, node, messages } = conversation;
    return { id, mapId: node.mapId, latestMessageId: messages[0]?.id ?? null };
  },
  async dependentsOf(tx, nodeId) {
    const dependents = await tx.dependency.findMany({ where: { dependsOnId: nodeId }, select: { nodeId: true } });
    return dependents.map((d) => d.nodeId);
  },
  dependenciesOf,
  activeOrPausedRuns: (tx, nodeId) =>
    tx.agentRun.findMany({
      where: { nodeId, status: { in: [...ACTIVE_OR_PAUSED] } },
      select: { id: true, mapId: true, agent: true, status: true },
    }),
  pendingQuestions: (tx, runId) => tx.agentQuestion.count({ where: { runId, status: 'PENDING' } }),
  async latestModelChoice(tx, nodeId, kind) {
    const latest = await tx.decision.findFirst({
      where: { nodeId, kind, decidedBy: 'MODEL' },
      orderBy: { createdAt: 'desc' },
      select: { choice: true },
    });
    return latest?.choice ?? null;
  },
  async changeNodeState(tx, nodeId, mapId, change) {
    // A nullable column differs from a value when it is null too (SQL's `<>` is not true for null).
    const differs: Prisma.NodeWhereInput[] = [];
    if (change.status) differs.push({ status: { not: change.status } });
    if (change.intent) differs.push({ intent: { not: change.intent } }, { intent: null });
    if (change.strategy) differs.push({ strategy: { not: change.strategy } }, { strategy: null });
    if (differs.length === 0) return null;
    const [node] = await tx.node.updateManyAndReturn({ where: { id: nodeId, mapId, OR: differs }, data: change });
    return node ?? null;
  },
  async settleRunRow(tx, runId, status, spent) {
    const { count } = await tx.agentRun.updateMany({
      where: { id: runId, status: { not: 'CANCELLED' } },
      data: {
        status,
        promptTokens: { increment: spent.promptTokens },
        completionTokens: { increment: spent.completionTokens },
        ...estimatedOf(spent),
        tokensReserved: 0,
      },
    });
    return count > 0;
  },
  node: (tx, nodeId) => tx.node.findUnique({ where: { id: nodeId } }),
  async resolveQuestion(tx, questionId, from, change) {
    const [updated] = await tx.agentQuestion.updateManyAndReturn({
      where: { id: questionId, status: { in: [...from] } },
      data: change,
    });
    return updated ?? null;
  },
  async resumedRun(tx, runId, running, owner) {
    if (!running) return tx.agentRun.findUnique({ where: { id: runId } });
    const [run] = await tx.agentRun.updateManyAndReturn({
      where: { id: runId },
      data: { status: 'RUNNING', ...owner },
    });
    return run ?? null;
  },
  async endRun(tx, runId, { output, ...end }, spent) {
    const [run] = await tx.agentRun.updateManyAndReturn({
      where: { id: runId, status: { not: 'CANCELLED' } },
      data: {
        ...end,
        ...(output === undefined ? {} : { output: jsonColumn(output) }),
        promptTokens: { increment: spent.promptTokens },
        completionTokens: { increment: spent.completionTokens },
        ...estimatedOf(spent),
        tokensReserved: 0,
      },
    });
    return run ?? null;
  },
};

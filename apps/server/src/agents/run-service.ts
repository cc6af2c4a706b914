import type { AgentRun, Tx, User } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { id, parseInput } from '../commands/input.ts';
import { type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { NotFoundError, ValidationError } from '../errors/domain-errors.ts';
import type { MapEvent } from '../events/map-event.ts';
import { toWire } from '../events/map-event.ts';
import { NodeBusyError } from './agent-errors.ts';
import { checkReplyLimits } from './reply-limits.ts';
import { buildReply, type ReplyShortcut } from './reply-schemas.ts';
import { RUN_LEASE_MS, type RunEngine } from './run-engine.ts';

const processNodeInput = z.object({
  nodeId: id,
  intent: z.enum(['DECOMPOSE', 'CONCLUDE', 'EXPLORE', 'CLARIFY']).nullish(),
  strategy: z.enum(['SEQUENTIAL', 'PARALLEL', 'HIERARCHICAL', 'EXPLORATORY']).nullish(),
  conclusionKind: z.enum(['ANALYTICAL', 'CREATIVE', 'DECISION', 'LEARNING']).nullish(),
});

/** Refuses a second run on a node that has one running or waiting. */
async function assertNodeFree(tx: Tx, nodeId: string): Promise<void> {
  const busy = await tx.agentRun.findFirst({
    where: { nodeId, status: { in: ['RUNNING', 'WAITING'] } },
    select: { id: true },
  });
  if (busy) throw new NodeBusyError(nodeId, busy.id);
}

/**
 * Closes a question that is still PENDING (answered or expired), tells subscribers, and marks its run
 * RUNNING again once no other question of it waits. Returns the run and how many questions were waiting
 * (for addressing the resume), or null when the question was no longer pending.
 */
async function closeQuestion(
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
  data: { status: 'ANSWERED' | 'EXPIRED'; answeredAt: Date; reply?: object },
): Promise<{ run: AgentRun; waiting: number } | null> {
  const closed = await tx.agentQuestion.updateMany({ where: { id: question.id, status: 'PENDING' }, data });
  if (closed.count === 0) return null;
  const updated = await tx.agentQuestion.findUniqueOrThrow({ where: { id: question.id } });
  emit({ type: 'QuestionResolved', payload: { question: toWire(updated) } });
  const waiting = await tx.agentQuestion.count({ where: { runId: question.runId, status: 'PENDING' } });
  const run = await tx.agentRun.update({
    where: { id: question.runId },
    data: waiting === 0 ? { status: 'RUNNING' } : {},
  });
  return { run, waiting: waiting + 1 };
}

/**
 * What a person (or a client acting for them) can do with agent runs: start them, answer their questions,
 * cancel them. Every operation is a command (checked, one transaction, sequenced events); the drive itself
 * runs in the background and reports through events.
 */
export class RunService {
  constructor(private readonly engine: RunEngine) {}

  async #createRun(
    ctx: CommandContext,
    mapId: string,
    agent: string,
    nodeId: string | null,
    input: Record<string, unknown>,
  ) {
    return mutateMap(ctx, mapId, async (tx, emit) => {
      if (nodeId) await assertNodeFree(tx, nodeId);
      const runId = crypto.randomUUID();
      const run = await tx.agentRun.create({
        data: { mapId, nodeId, agent, threadId: runId, input: input as object, status: 'RUNNING' },
      });
      emit({ type: 'RunStarted', payload: { run: toWire(run) } });
      return run;
    });
  }

  /** Starts problem understanding on a map: the agent restates it and asks the person to confirm. */
  async understandProblem(ctx: CommandContext, mapId: string): Promise<AgentRun> {
    const map = await ctx.db.prisma.map.findUniqueOrThrow({ where: { id: mapId } });
    const input = { mapId, problem: map.problem || map.title, language: map.language === 'zh' ? 'zh' : 'en' };
    const run = await this.#createRun(ctx, mapId, 'understand-problem', null, input);
    void this.engine.drive(run, input);
    return run;
  }

  /** Starts processing a node; the person may override the intent, strategy and conclusion kind. */
  async processNode(ctx: CommandContext, raw: unknown): Promise<AgentRun> {
    const parsed = parseInput(processNodeInput, raw);
    const mapId = await mapIdOfNode(ctx, parsed.nodeId);
    const input = {
      nodeId: parsed.nodeId,
      intentOverride: parsed.intent ?? null,
      strategyOverride: parsed.strategy ?? null,
      conclusionKind: parsed.conclusionKind ?? null,
    };
    const run = await this.#createRun(ctx, mapId, 'process-node', parsed.nodeId, input);
    void this.engine.drive(run, input);
    return run;
  }

  /** Answers a waiting question; the run resumes from where it paused. */
  async reply(ctx: CommandContext, requestId: string, shortcut: ReplyShortcut): Promise<AgentRun> {
    const questionId = parseInput(z.object({ requestId: id }), { requestId }).requestId;
    const question = await ctx.db.prisma.agentQuestion.findUnique({
      where: { id: questionId },
      include: { run: true },
    });
    if (!question) throw new NotFoundError('AgentQuestion', questionId);
    const reply = buildReply(question.kind, shortcut);
    checkReplyLimits(question.kind, reply);
    const { run, waiting } = await mutateMap(ctx, question.mapId, async (tx, emit) => {
      const closed = await closeQuestion(tx, emit, question, {
        status: 'ANSWERED',
        reply: reply as object,
        answeredAt: new Date(),
      });
      if (!closed)
        throw new ValidationError('requestId', `this question is no longer waiting (${question.status.toLowerCase()})`);
      return closed;
    });
    void this.engine.resume(run, question.interruptId, reply, waiting);
    return run;
  }

  /** Cancels a running or waiting run; its node can be processed again. */
  async cancel(ctx: CommandContext, runId: string): Promise<AgentRun> {
    const found = await ctx.db.prisma.agentRun.findUnique({ where: { id: runId } });
    if (!found) throw new NotFoundError('AgentRun', runId);
    const run = await mutateMap(ctx, found.mapId, async (tx, emit) => {
      const current = await tx.agentRun.findUniqueOrThrow({ where: { id: runId } });
      if (current.status !== 'RUNNING' && current.status !== 'WAITING') {
        throw new ValidationError('runId', `the run has already ended (${current.status.toLowerCase()})`);
      }
      await tx.agentQuestion.updateMany({ where: { runId, status: 'PENDING' }, data: { status: 'CANCELLED' } });
      const cancelled = await tx.agentRun.update({
        where: { id: runId },
        data: { status: 'CANCELLED', error: 'cancelled by the person', errorCode: 'CANCELLED', finishedAt: new Date() },
      });
      if (current.nodeId) {
        const node = await tx.node.findUnique({ where: { id: current.nodeId } });
        if (node && node.status !== 'COMPLETED') {
          const ready = await tx.node.update({ where: { id: node.id }, data: { status: 'READY', statusReason: null } });
          emit({ type: 'NodeUpdated', payload: { node: toWire(ready), fields: ['status'] } });
        }
      }
      emit({
        type: 'RunFailed',
        payload: { run: toWire(cancelled), code: 'CANCELLED', reason: 'cancelled by the person' },
      });
      return cancelled;
    });
    this.engine.abort(run);
    return run;
  }

  /** Lets every question whose time ran out go: its run goes on with what it has. Returns how many. */
  async expireDue(ctx: Omit<CommandContext, 'viewer'>, now = new Date()): Promise<number> {
    const due = await ctx.db.prisma.agentQuestion.findMany({
      where: { status: 'PENDING', expiresAt: { lte: now } },
      include: { run: { include: { map: { include: { owner: true } } } } },
    });
    for (const question of due) {
      const owner = question.run.map.owner as User;
      const result = await mutateMap({ ...ctx, viewer: owner }, question.mapId, (tx, emit) =>
        closeQuestion(tx, emit, question, { status: 'EXPIRED', answeredAt: now }),
      );
      if (result) void this.engine.expire(result.run, question.interruptId, result.waiting);
    }
    return due.length;
  }

  /**
   * Runs left mid-step by a process that died go on from their last checkpoint. A run counts as abandoned
   * when its lease (refreshed while some process drives it) is older than `leaseMs`, so several server
   * instances on one database never drive the same run. Waiting runs just wait. Returns how many resumed.
   */
  async recover(db: CommandContext['db'], leaseMs = RUN_LEASE_MS, now = new Date()): Promise<number> {
    const stale = new Date(now.getTime() - leaseMs);
    const abandoned = await db.prisma.agentRun.findMany({ where: { status: 'RUNNING', updatedAt: { lt: stale } } });
    let resumed = 0;
    for (const run of abandoned) {
      if (this.engine.isActive(run.id)) continue;
      // Claim it: only the process whose update still sees the stale lease resumes the run.
      const claimed = await db.write((tx) =>
        tx.agentRun.updateMany({
          where: { id: run.id, status: 'RUNNING', updatedAt: run.updatedAt },
          data: { updatedAt: now },
        }),
      );
      if (claimed.count === 0) continue;
      resumed++;
      // From its last checkpoint; a run whose process died before the first one starts again from its input.
      const checkpointed = await db.prisma.checkpoint.count({ where: { threadId: run.threadId } });
      void this.engine.drive(run, checkpointed ? null : run.input);
    }
    return resumed;
  }

  /**
   * Bottom-up: when the last open child of a node concludes, the parent's conclusion starts by itself, and
   * so on up the tree (unless the map's autoRun is off).
   */
  async onEvents(ctx: Omit<CommandContext, 'viewer'>, events: readonly MapEvent[]): Promise<void> {
    for (const event of events) {
      if (event.type !== 'NodeConcluded' || !event.payload.node.parentId) continue;
      const parent = await ctx.db.prisma.node.findUnique({
        where: { id: event.payload.node.parentId },
        include: { children: { select: { status: true } }, map: { include: { owner: true } } },
      });
      if (!parent || parent.status === 'COMPLETED' || !parent.map.autoRun) continue;
      if (!parent.children.every((child) => child.status === 'COMPLETED')) continue;
      try {
        await this.processNode({ ...ctx, viewer: parent.map.owner as User }, { nodeId: parent.id, intent: 'CONCLUDE' });
      } catch (error) {
        if (!(error instanceof NodeBusyError))
          console.error('[thinkingmap] bottom-up conclusion did not start:', error);
      }
    }
  }
}

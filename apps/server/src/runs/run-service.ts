import {
  DIVERGENT_LIMITS,
  FORKABLE_STEPS,
  forkChangeProblem,
  forkUpdate,
  isForkableStep,
  ReviewDecompositionReplySchema,
  type SubQuestionProposal,
} from '@thinkingmap/agent-core';
import {
  AgentGraph,
  type AgentRun,
  ConclusionKind,
  DecompositionStrategy,
  isGateQuestion,
  isRunOpen,
  NodeIntent,
  QuestionKind,
  type RunLog,
  type Tx,
} from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { toNodeSnapshot, toQuestionSnapshot, toRunSnapshot } from '../commands/event-snapshots.ts';
import { checkJson, id, parseInput } from '../commands/input.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { assertCanChange, type Emit, mapIdOfNode, mutateMap } from '../commands/mutate-map.ts';
import { checkReviewSkills } from '../divergent/offered-skill.ts';
import { steerDivergent } from '../divergent/steer-divergent.ts';
import { undoRunCreations } from '../history/undo-commands.ts';
import { UndoRefusedError } from '../history/undo-refused-error.ts';
import { NodeBusyError } from './agent-errors.ts';
import { isAnswerable } from './answerable-questions.ts';
import { conclusionsToStart } from './auto-conclusions.ts';
import { type AutoStart, autoStartDecision } from './auto-start.ts';
import { recordDecision } from './decisions.ts';
import { checkReplyLimits } from './reply-limits.ts';
import { buildReply, type ReplyShortcut } from './reply-schemas.ts';
import { driveMapOf, RUN_LEASE_MS, type RunEngine } from './run-engine.ts';
import { runPath } from './run-path.ts';
import { openDependencies, waitingRunsToStart } from './waiting-runs.ts';

const processNodeInput = z.object({
  nodeId: id,
  intent: z.enum(NodeIntent).nullish(),
  strategy: z.enum(DecompositionStrategy).nullish(),
  conclusionKind: z.enum(ConclusionKind).nullish(),
});

const startDivergentInput = z.object({
  nodeId: id,
  maxLevels: z.number().int().min(1).max(DIVERGENT_LIMITS.maxLevels).nullish(),
  maxParallel: z.number().int().min(1).max(DIVERGENT_LIMITS.maxParallel).nullish(),
  threshold: z.number().min(0).max(1).nullish(),
  reviewEachLevel: z.boolean().nullish(),
});

const forkRunInput = z.object({
  runId: id,
  step: z.string().min(1).max(64),
  round: z.number().int().min(1).max(1000).nullish(),
  intent: z.enum(NodeIntent).nullish(),
  strategy: z.enum(DecompositionStrategy).nullish(),
  subQuestions: z.array(z.unknown()).nullish(),
  feedback: z.string().trim().min(1).max(4000).nullish(),
});
/** A fork reads only which checkpoint each step started from, not what context an agent step held. */
const NO_AGENT_STEPS: ReadonlySet<string> = new Set();
/** Runs that ended (or paused on an expired gate) with their checkpoints kept: the ones a fork can start from. */
const FORKABLE_RUN_STATUSES = ['COMPLETED', 'FAILED', 'PAUSED'] as const;

const startCriticInput = z.object({ mapId: id, nodeId: id.nullish() });
const DIVERGENT_MAP = { trigger: 'DIVERGENT_MAP' } as const;

/**
 * The runs of `agent` paused on an expired gate on the node (or on the map, for a run on no node), which a new run
 * replaces. Refuses a second run on a node that has one running or waiting (read in the same query).
 */
async function pausedRunsToReplace(
  log: RunLog,
  tx: Tx,
  mapId: string,
  nodeId: string | null,
  agent: AgentGraph,
): Promise<AgentRun[]> {
  if (!nodeId) return tx.agentRun.findMany({ where: { mapId, nodeId: null, agent, status: 'PAUSED' } });
  const runs = await log.activeOrPausedRuns(tx, nodeId);
  const busy = runs.find((r) => r.status !== 'PAUSED');
  if (busy) throw new NodeBusyError(nodeId, busy.id);
  const paused = runs.filter((r) => r.agent === agent && r.mapId === mapId).map((r) => r.id);
  return paused.length ? tx.agentRun.findMany({ where: { id: { in: paused } } }) : [];
}

/** Runs that can still be cancelled: active ones, and those paused on an expired gate. */

/**
 * Moves a question out of `from` (PENDING by default) with `data` and tells subscribers. Returns how many
 * other questions of its run still wait, or null when the question was no longer in `from`.
 */
async function resolveQuestion(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
  data: { status: 'ANSWERED' | 'EXPIRED'; answeredAt?: Date; reply?: object },
  from: ('PENDING' | 'EXPIRED')[] = ['PENDING'],
): Promise<number | null> {
  const updated = await log.resolveQuestion(tx, question.id, from, data);
  if (!updated) return null;
  emit({ type: 'QuestionResolved', payload: { question: toQuestionSnapshot(updated) } });
  return log.pendingQuestions(tx, question.runId);
}

/**
 * Closes a question that can still be answered (PENDING, or an expired gate of a paused run: `from`), tells
 * subscribers, and marks its run RUNNING again once no other question of it waits. Returns the run and how
 * many questions were waiting (for addressing the resume), or null when the question was no longer open.
 */
async function closeQuestion(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
  data: { status: 'ANSWERED' | 'EXPIRED'; answeredAt: Date; reply?: object },
  from: ('PENDING' | 'EXPIRED')[] = ['PENDING'],
): Promise<{ run: AgentRun; waiting: number } | null> {
  const waiting = await resolveQuestion(log, tx, emit, question, data, from);
  if (waiting === null) return null;
  const run = await log.resumedRun(tx, question.runId, waiting === 0);
  if (!run) throw new NotFoundError('AgentRun', question.runId);
  return { run, waiting: waiting + 1 };
}

/**
 * Marks a gate question EXPIRED without answering it, and pauses its run once nothing else of it waits: no
 * drive starts, the checkpoint stays, and the question can still be answered (`isAnswerable`).
 */
async function pauseOnExpiredGate(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
): Promise<void> {
  const waiting = await resolveQuestion(log, tx, emit, question, { status: 'EXPIRED' });
  if (waiting === 0)
    await tx.agentRun.updateMany({ where: { id: question.runId, status: 'WAITING' }, data: { status: 'PAUSED' } });
}

/**
 * Cancels a run that has not ended (its open questions, expired gates included, are cancelled) and gives its
 * node back: READY, or COMPLETED when it was concluded before (a cancelled redraft keeps the conclusion).
 */
async function cancelRunIn(tx: Tx, emit: Emit, current: AgentRun, reason: string): Promise<AgentRun> {
  await tx.agentQuestion.updateMany({
    where: { runId: current.id, status: { in: ['PENDING', 'EXPIRED'] } },
    data: { status: 'CANCELLED' },
  });
  const cancelled = await tx.agentRun.update({
    where: { id: current.id },
    data: { status: 'CANCELLED', error: reason, errorCode: 'CANCELLED', finishedAt: new Date() },
  });
  // A run that waited for dependencies never touched its node.
  if (current.nodeId && current.status !== 'WAITING_FOR_DEPENDENCIES') {
    const node = await tx.node.findUnique({ where: { id: current.nodeId } });
    if (node && node.status !== 'COMPLETED') {
      // A node that was concluded before (a redraft cancelled) keeps its conclusion, as it was.
      const status = node.conclusion === null ? 'READY' : 'COMPLETED';
      const ready = await tx.node.update({ where: { id: node.id }, data: { status, statusReason: null } });
      emit({ type: 'NodeUpdated', payload: { node: toNodeSnapshot(ready), fields: ['status'] } });
    }
  }
  emit({ type: 'RunFailed', payload: { run: toRunSnapshot(cancelled), code: 'CANCELLED', reason } });
  return cancelled;
}

/**
 * Refuses a fork of a run that has not ended, in the fork's transaction (one whose checkpoints were pruned is
 * refused by {@link copyCheckpointIn}, in the same transaction).
 */
async function assertForkable(tx: Tx, from: AgentRun): Promise<void> {
  const current = await tx.agentRun.findUniqueOrThrow({ where: { id: from.id }, select: { status: true } });
  if (current.status === 'CANCELLED')
    throw new ValidationError('runId', 'a cancelled run keeps no checkpoints to fork from; start the question again');
  if (!(FORKABLE_RUN_STATUSES as readonly string[]).includes(current.status))
    throw new ConflictError(`run ${from.id} has not ended (${current.status.toLowerCase()}); wait for it or cancel it`);
}

/**
 * Copies one checkpoint of a thread (the root namespace's: the one a step started from) to a new thread, in the
 * caller's transaction; refuses when it is no longer kept.
 */
async function copyCheckpointIn(
  tx: Tx,
  fromThread: string,
  checkpointId: string | null,
  toThread: string,
): Promise<void> {
  const kept =
    checkpointId &&
    (await tx.checkpoint.findUnique({
      where: { threadId_namespace_checkpointId: { threadId: fromThread, namespace: '', checkpointId } },
    }));
  if (!kept)
    throw new ValidationError('runId', 'the checkpoints of this run are no longer kept (only the latest runs are)');
  await tx.checkpoint.create({ data: { ...kept, threadId: toThread, parentCheckpointId: null } });
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
    agent: AgentGraph,
    nodeId: string | null,
    input: Record<string, unknown>,
    auto?: AutoStart,
    consultationId?: string,
    fork?: { from: AgentRun; step: string; checkpointId: string | null },
  ) {
    const { run, replaced, onMap } = await mutateMap(ctx, mapId, async (tx, emit, map) => {
      if (fork) await assertForkable(tx, fork.from);
      // Redoing a step replaces the run paused on it (an expired gate): one run per node, one understanding per map.
      const paused = await pausedRunsToReplace(ctx.db.runLog, tx, mapId, nodeId, agent);
      const replaced = [];
      for (const old of paused) replaced.push(await cancelRunIn(tx, emit, old, 'replaced by a new run'));
      // A node whose dependencies are open cannot be worked on yet: its run waits for them (see `startWaiting`).
      const waitingFor =
        nodeId && agent === AgentGraph.PROCESS_NODE
          ? openDependencies(await ctx.db.runLog.dependenciesOf(tx, nodeId))
          : [];
      const runId = crypto.randomUUID();
      const run = await tx.agentRun.create({
        data: {
          mapId,
          nodeId,
          agent,
          threadId: runId,
          input: input as object,
          consultationId: consultationId ?? null,
          forkedFromRunId: fork?.from.id ?? null,
          forkedFromStep: fork?.step ?? null,
          status: waitingFor.length ? 'WAITING_FOR_DEPENDENCIES' : 'RUNNING',
          ownerInstance: this.engine.owner.instanceId,
          ownerBoot: this.engine.owner.bootId,
        },
      });
      // A fork's thread starts as a copy of the checkpoint the original's step started from (its state then).
      if (fork) await copyCheckpointIn(tx, fork.from.threadId, fork.checkpointId, run.threadId);
      if (waitingFor.length)
        emit({ type: 'RunWaitingForDependencies', payload: { run: toRunSnapshot(run), waitingFor } });
      else emit({ type: 'RunStarted', payload: { run: toRunSnapshot(run) } });
      if (auto) await recordDecision(ctx.db.runLog, tx, emit, mapId, autoStartDecision(run, auto, map.language));
      return { run, replaced, onMap: driveMapOf(map) };
    });
    for (const old of replaced) this.engine.abort(old);
    // The map as the run was created on it: its first drive need not read it again.
    return { run, onMap };
  }

  /**
   * Starts problem understanding on a map: the agent restates it and asks the person to confirm. `consultationId`
   * names the consultation that created the map (it goes on once the person confirms).
   */
  async understandProblem(ctx: CommandContext, mapId: string, consultationId?: string): Promise<AgentRun> {
    const map = await ctx.db.read.map.findUniqueOrThrow({ where: { id: mapId } });
    // Everything the person wrote goes to the agent: it restates their title, goal and constraints too.
    const input = {
      mapId,
      problem: map.problem || map.title,
      title: map.title,
      goal: map.goal,
      constraints: Array.isArray(map.constraints) ? map.constraints.map(String) : [],
      language: map.language,
    };
    const { run } = await this.#createRun(
      ctx,
      mapId,
      AgentGraph.UNDERSTAND_PROBLEM,
      null,
      input,
      undefined,
      consultationId,
    );
    void this.engine.start(run, input);
    return run;
  }

  /**
   * A consultation's planner proposes sub-questions for a node: a decomposition run that takes the proposal as
   * its first one and goes to the same review as any decomposition (the person approves, edits or rejects —
   * a rejection asks the decomposition agent for another); no node exists before the person approves.
   */
  async proposeSubQuestions(
    ctx: CommandContext,
    raw: { nodeId: string; proposal: SubQuestionProposal; consultationId: string },
  ): Promise<AgentRun> {
    const nodeId = parseInput(z.object({ nodeId: id }), { nodeId: raw.nodeId }).nodeId;
    const mapId = await mapIdOfNode(ctx, nodeId);
    const input = {
      nodeId,
      intentOverride: NodeIntent.DECOMPOSE,
      strategyOverride: null,
      conclusionKind: null,
      proposalOverride: raw.proposal,
    };
    const { run } = await this.#createRun(
      ctx,
      mapId,
      AgentGraph.PROCESS_NODE,
      nodeId,
      input,
      undefined,
      raw.consultationId,
    );
    if (run.status === 'RUNNING') void this.engine.start(run, input);
    return run;
  }

  /**
   * Starts processing a node; the person may override the intent, strategy and conclusion kind. On a node
   * whose dependencies are open the run is accepted as WAITING_FOR_DEPENDENCIES and starts by itself when the
   * last one concludes. `auto` says why a run starts by itself (recorded as a decision of the run).
   */
  async processNode(ctx: CommandContext, raw: unknown, auto?: AutoStart): Promise<AgentRun> {
    const parsed = parseInput(processNodeInput, raw);
    const mapId = await mapIdOfNode(ctx, parsed.nodeId);
    const input = {
      nodeId: parsed.nodeId,
      intentOverride: parsed.intent ?? null,
      strategyOverride: parsed.strategy ?? null,
      conclusionKind: parsed.conclusionKind ?? null,
    };
    const { run, onMap } = await this.#createRun(ctx, mapId, AgentGraph.PROCESS_NODE, parsed.nodeId, input, auto);
    if (run.status === 'RUNNING') void this.engine.start(run, input, onMap);
    return run;
  }

  /**
   * Forks a node run from one of its steps (`FORKABLE_STEPS`): a new run on the same node, linked to the
   * original, starts from a copy of the checkpoint that step started from (its `round`, the last one unless
   * named: a loop's earlier round starts from that round's state) with the person's change (another intent or
   * strategy, edited sub-questions, feedback) and goes on to the person's gate. The original's results stay:
   * a fork's decomposition replaces them only when the person approves its proposal (see `reply`).
   */
  async forkRun(ctx: CommandContext, raw: unknown): Promise<AgentRun> {
    const parsed = parseInput(forkRunInput, raw);
    const from = await ctx.db.read.agentRun.findUnique({ where: { id: parsed.runId } });
    if (!from) throw new NotFoundError('AgentRun', parsed.runId);
    // Access first: which steps a run took is none of a stranger's business.
    assertCanChange(ctx, 'AgentRun', from.id);
    const map = await ctx.db.mapVersion(from.mapId);
    if (map?.ownerId !== ctx.viewer.id) throw new ForbiddenError('AgentRun', from.id);
    if (from.agent !== AgentGraph.PROCESS_NODE || !from.nodeId)
      throw new ValidationError('runId', 'only a run on a node (intent, decomposition, conclusion) can be forked');
    if (!isForkableStep(parsed.step))
      throw new ValidationError('step', `a run can be forked from ${FORKABLE_STEPS.join(', ')}`);
    const step = parsed.step;
    // The visit forked from (its last round unless one is named) and the checkpoint it started from.
    const path = await runPath(ctx.db.read, from, NO_AGENT_STEPS);
    const visits = path.steps.filter((s) => s.step === step);
    const visit = parsed.round ? visits.find((s) => s.round === parsed.round) : visits.at(-1);
    if (!visit) throw new NotFoundError('RunStep', `${from.id}/${step}${parsed.round ? `#${parsed.round}` : ''}`);
    const proposal = parsed.subQuestions ? await this.#editedProposal(ctx, from, parsed.subQuestions) : null;
    const change = { intent: parsed.intent, strategy: parsed.strategy, feedback: parsed.feedback, proposal };
    const problem = forkChangeProblem(step, change);
    if (problem) throw new ValidationError(problem.field, problem.message);
    const input = {
      ...(from.input as Record<string, unknown>),
      ...(parsed.intent ? { intentOverride: parsed.intent } : {}),
      ...(parsed.strategy ? { strategyOverride: parsed.strategy } : {}),
      proposalOverride: null,
    };
    const { run } = await this.#createRun(
      ctx,
      from.mapId,
      AgentGraph.PROCESS_NODE,
      from.nodeId,
      input,
      undefined,
      undefined,
      { from, step, checkpointId: visit.checkpointId },
    );
    if (run.status === 'RUNNING') void this.engine.fork(run, forkUpdate(step, change));
    return run;
  }

  /** The original run's last reviewed proposal with the person's edited sub-questions (checked like a review's). */
  async #editedProposal(ctx: CommandContext, from: AgentRun, subQuestions: unknown[]): Promise<SubQuestionProposal> {
    const edited = ReviewDecompositionReplySchema.safeParse({ action: 'approve', subQuestions });
    if (!edited.success || edited.data.action !== 'approve' || !edited.data.subQuestions)
      throw new ValidationError('subQuestions', 'give 1 to 12 sub-questions, each with a key, a question and a goal');
    checkReplyLimits(QuestionKind.REVIEW_DECOMPOSITION, edited.data);
    const review = await ctx.db.read.agentQuestion.findFirst({
      where: { runId: from.id, kind: QuestionKind.REVIEW_DECOMPOSITION },
      orderBy: { createdAt: 'desc' },
      select: { context: true },
    });
    const reviewed = (review?.context as { proposal?: SubQuestionProposal } | null)?.proposal;
    if (!reviewed) throw new NotFoundError('RunStep', `${from.id}/reviewProposal`);
    return { ...reviewed, subQuestions: edited.data.subQuestions };
  }

  /**
   * Starts the runs that waited for their node's dependencies once none is open (after `events`, or any due
   * when omitted): each is claimed in a command on its map (only one process starts it), records that it
   * started by itself, and is driven from its input. A run whose node was deleted meanwhile is cancelled.
   */
  async startWaiting(ctx: Omit<CommandContext, 'viewer'>, events?: readonly MapEvent[]): Promise<void> {
    for (const waiting of await waitingRunsToStart(ctx.db, events)) {
      const map = await ctx.db.mapVersion(waiting.mapId);
      if (!map) continue;
      const run = await mutateMap({ ...ctx, viewer: { id: map.ownerId } }, waiting.mapId, async (tx, emit, row) => {
        const current = await tx.agentRun.findUnique({ where: { id: waiting.id } });
        if (current?.status !== 'WAITING_FOR_DEPENDENCIES') return null;
        if (!current.nodeId) {
          const reason = row.language === 'zh' ? '它的节点已被删除' : 'its node was deleted';
          const ended = await tx.agentRun.update({
            where: { id: current.id },
            data: { status: 'CANCELLED', error: reason, errorCode: 'CANCELLED', finishedAt: new Date() },
          });
          emit({ type: 'RunFailed', payload: { run: toRunSnapshot(ended), code: 'CANCELLED', reason } });
          return null;
        }
        const open = openDependencies(await ctx.db.runLog.dependenciesOf(tx, current.nodeId));
        if (open.length) return null;
        const started = await tx.agentRun.update({
          where: { id: current.id },
          data: { status: 'RUNNING', ownerInstance: this.engine.owner.instanceId, ownerBoot: this.engine.owner.bootId },
        });
        emit({ type: 'RunStarted', payload: { run: toRunSnapshot(started) } });
        const trigger = { trigger: 'DEPENDENCIES_CONCLUDED' } as const;
        await recordDecision(ctx.db.runLog, tx, emit, row.id, autoStartDecision(started, trigger, row.language));
        return started;
      });
      if (run) void this.engine.start(run, run.input);
    }
  }

  /**
   * Starts a divergent session on a node: summary, up to `maxParallel` parallel tasks per level, converge,
   * score, until `threshold` or `maxLevels`, then the final output. The run's id is the session's id.
   */
  async startDivergent(ctx: CommandContext, raw: unknown, auto?: AutoStart): Promise<AgentRun> {
    const parsed = parseInput(startDivergentInput, raw);
    const mapId = await mapIdOfNode(ctx, parsed.nodeId);
    const input = {
      nodeId: parsed.nodeId,
      maxLevels: parsed.maxLevels ?? DIVERGENT_LIMITS.maxLevels,
      maxParallel: parsed.maxParallel ?? DIVERGENT_LIMITS.maxParallel,
      threshold: parsed.threshold ?? DIVERGENT_LIMITS.threshold,
      reviewEachLevel: parsed.reviewEachLevel ?? false,
    };
    const { run } = await this.#createRun(ctx, mapId, AgentGraph.DIVERGENT, parsed.nodeId, input, auto);
    void this.engine.start(run, input);
    return run;
  }

  /**
   * Starts a critic review of a map, or of the subtree under `nodeId`: it posts what it finds as suggestions
   * (see `criticSuggestions`) and changes nothing itself. The run belongs to the map, so it never holds a node.
   */
  async startCritic(ctx: CommandContext, raw: unknown): Promise<AgentRun> {
    const parsed = parseInput(startCriticInput, raw);
    const map = await ctx.db.read.map.findUnique({ where: { id: parsed.mapId }, select: { id: true } });
    if (!map) throw new NotFoundError('Map', parsed.mapId);
    if (parsed.nodeId) {
      const node = await ctx.db.read.node.findUnique({ where: { id: parsed.nodeId }, select: { mapId: true } });
      if (node?.mapId !== parsed.mapId) throw new NotFoundError('Node', parsed.nodeId);
    }
    const input = { mapId: parsed.mapId, scopeNodeId: parsed.nodeId ?? null };
    const { run } = await this.#createRun(ctx, parsed.mapId, AgentGraph.CRITIC, null, input);
    void this.engine.start(run, input);
    return run;
  }

  /**
   * A map created in DIVERGENT mode explores its root by itself once the person confirmed the problem's
   * understanding (the understanding run finished and created the root): a divergent session with the
   * defaults starts on it, recorded as a decision (DIVERGENT_MAP). Only the first time: a root that already
   * had a divergent session is left alone.
   */
  async startDivergentMaps(ctx: Omit<CommandContext, 'viewer'>, events: readonly MapEvent[]): Promise<void> {
    for (const event of events) {
      if (event.type !== 'RunFinished' || event.payload.run.agent !== AgentGraph.UNDERSTAND_PROBLEM) continue;
      const map = await ctx.db.read.map.findUnique({
        where: { id: event.mapId },
        select: { mode: true, ownerId: true },
      });
      if (map?.mode !== 'DIVERGENT') continue;
      const root = await ctx.db.read.node.findFirst({
        where: { mapId: event.mapId, parentId: null, divergentRole: null },
        orderBy: { createdAt: 'asc' },
        select: { id: true },
      });
      if (!root) continue;
      const earlier = await ctx.db.read.agentRun.count({ where: { nodeId: root.id, agent: AgentGraph.DIVERGENT } });
      if (earlier) continue;
      try {
        await this.startDivergent({ ...ctx, viewer: { id: map.ownerId } }, { nodeId: root.id }, DIVERGENT_MAP);
      } catch (error) {
        if (!(error instanceof NodeBusyError)) this.engine.logError(error);
      }
    }
  }

  /** The divergent skills this server offers, and why the others are not. */
  divergentSkills() {
    return this.engine.divergentSkills();
  }

  /**
   * Steers a running divergent session (stop, skip or add a task, change the threshold, add feedback): see
   * `steerDivergent`. Returns the session's run.
   */
  steerDivergent(ctx: CommandContext, raw: unknown): Promise<AgentRun> {
    return steerDivergent(ctx, raw, {
      skills: this.engine.divergentSkills(),
      interruptTasks: (runId, keys, reason) => this.engine.interruptTasks(runId, keys, reason),
      stopReview: (c, questionId) => this.reply(c, questionId, { reply: { action: 'stop' } }),
    });
  }

  /** Answers a waiting question; the run resumes from where it paused. */
  async reply(ctx: CommandContext, requestId: string, shortcut: ReplyShortcut): Promise<AgentRun> {
    const questionId = parseInput(z.object({ requestId: id }), { requestId }).requestId;
    const question = await ctx.db.agentReads.question(questionId);
    if (!question) throw new NotFoundError('AgentQuestion', questionId);
    // Access first: how a reply is checked depends on the question, which is none of a stranger's business.
    assertCanChange(ctx, 'AgentQuestion', questionId);
    const map = await ctx.db.mapVersion(question.mapId);
    if (map?.ownerId !== ctx.viewer.id) throw new ForbiddenError('AgentQuestion', questionId);
    checkJson('reply', shortcut.reply);
    checkJson('text', shortcut.text);
    checkReviewSkills(question.kind, shortcut.reply, this.engine.divergentSkills());
    const reply = buildReply(question.kind, shortcut);
    checkReplyLimits(question.kind, reply);
    if (question.kind === QuestionKind.REVIEW_DECOMPOSITION && (reply as { action?: unknown }).action === 'approve')
      await this.#replaceForkedRun(ctx, question);
    const { run, waiting, onMap } = await mutateMap(ctx, question.mapId, async (tx, emit, map) => {
      // An expired gate is still the person's to answer while its run is paused: the run goes on from there.
      const current = await ctx.db.runLog.questionState(tx, question.id);
      if (!current) throw new NotFoundError('AgentQuestion', question.id);
      const closed = isAnswerable(current, current.runStatus)
        ? await closeQuestion(
            ctx.db.runLog,
            tx,
            emit,
            question,
            { status: 'ANSWERED', reply: reply as object, answeredAt: new Date() },
            ['PENDING', 'EXPIRED'],
          )
        : null;
      if (!closed)
        throw new ValidationError('requestId', `this question is no longer waiting (${current.status.toLowerCase()})`);
      return { ...closed, onMap: driveMapOf(map) };
    });
    void this.engine.resume(run, question.interruptId, reply, waiting, onMap);
    return run;
  }

  /**
   * The person approved a fork's proposal: the sub-questions (and dependencies) the original run created are
   * taken back first (refused, with the later change named, where something since depends on it; the question keeps
   * waiting), so the fork's sub-questions replace the original's instead of joining them.
   */
  async #replaceForkedRun(ctx: CommandContext, question: { id: string; runId: string }): Promise<void> {
    const run = await ctx.db.read.agentRun.findUniqueOrThrow({
      where: { id: question.runId },
      select: { status: true, forkedFromRunId: true },
    });
    const current = await ctx.db.read.agentQuestion.findUniqueOrThrow({
      where: { id: question.id },
      select: { status: true, kind: true },
    });
    if (!run.forkedFromRunId || !isAnswerable(current, run.status)) return;
    try {
      await undoRunCreations(ctx, run.forkedFromRunId);
    } catch (error) {
      if (!(error instanceof UndoRefusedError && error.reason === 'NOTHING_TO_UNDO')) throw error;
    }
  }

  /** Cancels a running or waiting run; its node can be processed again. */
  async cancel(ctx: CommandContext, runId: string): Promise<AgentRun> {
    const found = await ctx.db.read.agentRun.findUnique({ where: { id: runId } });
    if (!found) throw new NotFoundError('AgentRun', runId);
    const run = await mutateMap(ctx, found.mapId, async (tx, emit) => {
      const current = await tx.agentRun.findUniqueOrThrow({ where: { id: runId } });
      if (!isRunOpen(current.status)) {
        throw new ValidationError('runId', `the run has already ended (${current.status.toLowerCase()})`);
      }
      return cancelRunIn(tx, emit, current, 'cancelled by the person');
    });
    this.engine.abort(run);
    return run;
  }

  /**
   * Expires every question whose time ran out. A clarifying question lets its run go on with what it has. A
   * gate (confirm, review) never passes by expiry: the question is marked EXPIRED but stays answerable, and its
   * run is PAUSED with its proposal and checkpoint kept, until the person answers or redoes the step.
   * Returns how many expired.
   */
  async expireDue(ctx: Omit<CommandContext, 'viewer'>, now = new Date()): Promise<number> {
    const due = await ctx.db.read.agentQuestion.findMany({
      where: { status: 'PENDING', expiresAt: { lte: now } },
      include: { run: { select: { map: { select: { ownerId: true } } } } },
    });
    for (const question of due) {
      const owner = { id: question.run.map.ownerId };
      if (isGateQuestion(question.kind)) {
        await mutateMap({ ...ctx, viewer: owner }, question.mapId, (tx, emit) =>
          pauseOnExpiredGate(ctx.db.runLog, tx, emit, question),
        );
        continue;
      }
      const result = await mutateMap({ ...ctx, viewer: owner }, question.mapId, (tx, emit) =>
        closeQuestion(ctx.db.runLog, tx, emit, question, { status: 'EXPIRED', answeredAt: now }),
      );
      if (result) void this.engine.expire(result.run, question.interruptId, result.waiting);
    }
    return due.length;
  }

  /**
   * Runs left mid-step by a process that died go on from their last checkpoint. A run counts as abandoned
   * when its lease (refreshed while some process drives it) is older than `leaseMs`, so several server
   * instances on one database never drive the same run — or at once when this instance drove it under an
   * earlier boot (that process is gone: this one replaced it). Waiting runs just wait. Returns how many resumed.
   */
  async recover(db: CommandContext['db'], leaseMs = RUN_LEASE_MS, now = new Date()): Promise<number> {
    const stale = new Date(now.getTime() - leaseMs);
    const { instanceId, bootId } = this.engine.owner;
    const abandoned = await db.read.agentRun.findMany({
      where: {
        status: 'RUNNING',
        OR: [{ updatedAt: { lt: stale } }, { ownerInstance: instanceId, NOT: { ownerBoot: bootId } }],
      },
    });
    let resumed = 0;
    for (const run of abandoned) {
      if (this.engine.isActive(run.id)) continue;
      // Claim it: only the process whose update still sees the stale lease resumes the run. Like the lease's
      // heartbeat, this is coordination between processes, not a change to the map: no event, no map lock
      // (commands on the map must not wait for it), but the single write path all the same.
      const claimed = await db.write((tx) =>
        tx.agentRun.updateMany({
          where: { id: run.id, status: 'RUNNING', updatedAt: run.updatedAt },
          data: { updatedAt: now, ownerInstance: instanceId, ownerBoot: bootId },
        }),
      );
      if (claimed.count === 0) continue;
      resumed++;
      // From its last pause (with the replies it already got), or from its input when it never paused.
      void this.engine.recover(run);
    }
    return resumed;
  }

  /**
   * Conclusions that start by themselves on maps whose `autoRun` is on (see `conclusionsToStart`): bottom-up
   * when the last open child of a node concludes, and redrafts of conclusions gone out of date once what they
   * draw from is current again. Each drafts for the person's review.
   */
  async onEvents(ctx: Omit<CommandContext, 'viewer'>, events: readonly MapEvent[]): Promise<void> {
    await this.startWaiting(ctx, events).catch(this.engine.logError);
    await this.startDivergentMaps(ctx, events).catch(this.engine.logError);
    const mapId = events.find((e) => e.type === 'NodeConcluded' || e.type === 'NodeStale')?.mapId;
    if (!mapId) return;
    const map = await ctx.db.mapVersion(mapId);
    if (!map?.autoRun) return;
    for (const { nodeId, trigger } of await conclusionsToStart(ctx.db.read, events)) {
      try {
        await this.processNode({ ...ctx, viewer: { id: map.ownerId } }, { nodeId, intent: 'CONCLUDE' }, { trigger });
      } catch (error) {
        if (!(error instanceof NodeBusyError)) this.engine.logError(error);
      }
    }
  }
}

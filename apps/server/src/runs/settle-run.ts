import type { ModelUsage, RunOutcome } from '@thinkingmap/agent-core';
import type { AgentRun, CheckpointLog, RunEnd, RunLog, Tx } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError } from '../commands/domain-errors.ts';
import { toQuestionSnapshot, toRunSnapshot } from '../commands/event-snapshots.ts';
import { type Emit, mutateMap } from '../commands/mutate-map.ts';
import { pruneFinishedIn } from './prisma-checkpoint-store.ts';

type Outcome<S extends RunOutcome['status']> = Extract<RunOutcome, { status: S }>;

/** Stores the questions a paused run waits on (a question already stored for its interrupt is kept). */
async function storeQuestions(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  run: AgentRun,
  outcome: Outcome<'WAITING'>,
  ttlMs: number,
) {
  for (const q of outcome.questions) {
    if (await log.hasQuestion(tx, run.id, q.requestId)) continue;
    const question = await tx.agentQuestion.create({
      data: {
        runId: run.id,
        mapId: run.mapId,
        nodeId: run.nodeId,
        interruptId: q.requestId,
        kind: q.kind,
        question: q.question,
        context: JSON.parse(JSON.stringify(q.context ?? {})),
        expiresAt: new Date(Date.now() + ttlMs),
      },
    });
    emit({ type: 'AgentQuestion', payload: { question: toQuestionSnapshot(question) } });
  }
}

/** The run's new status and fields for how its drive ended. */
function endOf(outcome: RunOutcome): RunEnd {
  const finishedAt = new Date();
  switch (outcome.status) {
    case 'WAITING':
      return { status: 'WAITING' };
    case 'COMPLETED':
      return { status: 'COMPLETED', output: JSON.parse(JSON.stringify(outcome.output ?? {})), finishedAt };
    case 'FAILED':
      return { status: 'FAILED', error: outcome.reason, errorCode: outcome.code, raw: outcome.raw ?? null, finishedAt };
    default:
      return { status: 'CANCELLED', error: 'the run was cancelled', errorCode: 'CANCELLED', finishedAt };
  }
}

/** Where a drive's checkpoints go when it settles (see `DriveCheckpointStore`). */
export interface SettledCheckpoints {
  /** A paused run keeps what the drive wrote. */
  keepIn(log: CheckpointLog, tx: Tx): Promise<void>;
  /** A run that ended (or was cancelled) drops its thread's checkpoints: it can never resume. */
  dropIn(log: CheckpointLog, tx: Tx, threadId: string): Promise<void>;
  /** A run that ended and stays inspectable (within the map's checkpoint window) keeps its checkpoints. */
  keepFinishedIn(log: CheckpointLog, tx: Tx): Promise<void>;
}

/**
 * Records how a drive of a run ended, as a command on the run's map (acting as its owner, `ctx.viewer`):
 * the run's status, the token usage no ledger recorded yet (`unsettled`: all of it on a map without a
 * budget, whose calls are not metered one by one) on the run and the map, the questions it now waits on (AgentQuestion
 * events) with the checkpoint it will resume from, or RunFinished / RunFailed with its checkpoints dropped — and
 * the drive's last progress (its outbox, as `ctx.carry`) in the same transaction. A run the person cancelled meanwhile
 * stays cancelled. Returns false when the map is gone (nothing to settle).
 */
export async function settleRun(
  ctx: CommandContext,
  run: AgentRun,
  outcome: RunOutcome,
  unsettled: ModelUsage,
  checkpoints: SettledCheckpoints,
  questionTtlMs: number,
  /** Finished runs per map whose checkpoints are kept (0: a run that ends drops them). */
  checkpointWindow = 0,
): Promise<boolean> {
  try {
    const log = ctx.db.checkpointLog;
    let spentOnMap = false;
    await mutateMap(ctx, run.mapId, async (tx, emit) => {
      // The run's row first, in one statement unless the person cancelled the run meanwhile (then it stays cancelled).
      const end = endOf(outcome);
      const paused = end.status === 'WAITING' && (await ctx.db.runLog.settleRunRow(tx, run.id, 'WAITING', unsettled));
      const ended = end.status === 'WAITING' ? null : await ctx.db.runLog.endRun(tx, run.id, end, unsettled);
      const updated = paused || ended !== null;
      const cancelled = !updated && (await ctx.db.runLog.runStatus(tx, run.id)) === 'CANCELLED';
      if (!updated && !cancelled) return;
      const spent = unsettled.promptTokens + unsettled.completionTokens;
      if (spent) await tx.map.update({ where: { id: run.mapId }, data: { tokensUsed: { increment: spent } } });
      spentOnMap = spent > 0;
      if (cancelled) {
        // A run that stopped holds none of its map's budget any more.
        const tokens = {
          promptTokens: { increment: unsettled.promptTokens },
          completionTokens: { increment: unsettled.completionTokens },
          ...(unsettled.estimated ? { tokensEstimated: true } : {}),
          tokensReserved: 0,
        };
        await tx.agentRun.update({ where: { id: run.id }, data: tokens });
        await checkpoints.dropIn(log, tx, run.threadId);
        return;
      }
      if (outcome.status === 'WAITING') {
        // A pause: nothing reads the run back (its questions are the events).
        await storeQuestions(ctx.db.runLog, tx, emit, run, outcome, questionTtlMs);
        await checkpoints.keepIn(log, tx);
        return;
      }
      const keepFinished = checkpointWindow > 0 && (end.status === 'COMPLETED' || end.status === 'FAILED');
      if (keepFinished) await checkpoints.keepFinishedIn(log, tx);
      else await checkpoints.dropIn(log, tx, run.threadId);
      if (!ended) return;
      if (keepFinished) await pruneFinishedIn(ctx.db, tx, run.mapId, checkpointWindow);
      if (outcome.status === 'COMPLETED') emit({ type: 'RunFinished', payload: { run: toRunSnapshot(ended) } });
      if (outcome.status === 'FAILED' || outcome.status === 'CANCELLED') {
        const code = outcome.status === 'FAILED' ? outcome.code : 'CANCELLED';
        emit({ type: 'RunFailed', payload: { run: toRunSnapshot(ended), code, reason: ended.error ?? '' } });
      }
    });
    // `tokensUsed` moved with or without an event: as the token ledger does, every instance is told (map-versions.ts).
    if (spentOnMap) ctx.bus.signal({ type: 'map-row-changed', mapId: run.mapId });
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

import { type AgentRun, isRunOpen, type Tx } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import { NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { toNodeSnapshot, toRunSnapshot } from '../commands/event-snapshots.ts';
import { type Emit, mutateMap } from '../commands/mutate-map.ts';
import type { RunEngine } from './run-engine.ts';

/**
 * Cancels a run that has not ended (its open questions, expired gates included, are cancelled) and gives its
 * node back: READY, or COMPLETED when it was concluded before (a cancelled redraft keeps the conclusion).
 */
export async function cancelRunIn(tx: Tx, emit: Emit, current: AgentRun, reason: string): Promise<AgentRun> {
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

/** Cancels a running or waiting run; its node can be processed again. */
export async function cancelRun(engine: RunEngine, ctx: CommandContext, runId: string): Promise<AgentRun> {
  const found = await ctx.db.read.agentRun.findUnique({ where: { id: runId } });
  if (!found) throw new NotFoundError('AgentRun', runId);
  const run = await mutateMap(ctx, found.mapId, async (tx, emit) => {
    const current = await tx.agentRun.findUniqueOrThrow({ where: { id: runId } });
    if (!isRunOpen(current.status)) {
      throw new ValidationError('runId', `the run has already ended (${current.status.toLowerCase()})`);
    }
    return cancelRunIn(tx, emit, current, 'cancelled by the person');
  });
  engine.abort(run);
  return run;
}

import type { CommandContext } from '../commands/context.ts';
import { toRunSnapshot } from '../commands/event-snapshots.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { autoStartDecision } from './auto-start.ts';
import { recordDecision } from './decisions.ts';
import type { RunEngine } from './run-engine.ts';
import { openDependencies, waitingRunsToStart } from './waiting-runs.ts';

/**
 * Starts the runs that waited for their node's dependencies once none is open (after `events`, or any due
 * when omitted): each is claimed in a command on its map (only one process starts it), records that it
 * started by itself, and is driven from its input. A run whose node was deleted meanwhile is cancelled.
 */
export async function startWaiting(
  engine: RunEngine,
  ctx: Omit<CommandContext, 'viewer'>,
  events?: readonly MapEvent[],
): Promise<void> {
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
        data: { status: 'RUNNING', ...engine.ownerColumns },
      });
      emit({ type: 'RunStarted', payload: { run: toRunSnapshot(started) } });
      const trigger = { trigger: 'DEPENDENCIES_CONCLUDED' } as const;
      await recordDecision(ctx.db.runLog, tx, emit, row.id, autoStartDecision(started, trigger, row.language));
      return started;
    });
    if (run) void engine.start(run, run.input);
  }
}

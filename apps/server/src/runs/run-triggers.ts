import { AgentGraph } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { NodeBusyError } from './agent-errors.ts';
import { conclusionsToStart } from './auto-conclusions.ts';
import type { RunEngine } from './run-engine.ts';
import { processNode, startDivergent } from './start-runs.ts';
import { startWaiting } from './start-waiting.ts';

const DIVERGENT_MAP = { trigger: 'DIVERGENT_MAP' } as const;

/**
 * A map created in DIVERGENT mode explores its root by itself once the person confirmed the problem's
 * understanding (the understanding run finished and created the root): a divergent session with the
 * defaults starts on it, recorded as a decision (DIVERGENT_MAP). Only the first time: a root that already
 * had a divergent session is left alone.
 */
async function startDivergentMaps(
  engine: RunEngine,
  ctx: Omit<CommandContext, 'viewer'>,
  events: readonly MapEvent[],
): Promise<void> {
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
      await startDivergent(engine, { ...ctx, viewer: { id: map.ownerId } }, { nodeId: root.id }, DIVERGENT_MAP);
    } catch (error) {
      if (!(error instanceof NodeBusyError)) engine.logError(error);
    }
  }
}

/**
 * The runs that start by themselves after committed `events`: runs whose dependencies concluded, a divergent
 * map's first session, and conclusions on maps whose `autoRun` is on (see `conclusionsToStart`): bottom-up
 * when the last open child of a node concludes, and redrafts of conclusions gone out of date once what they
 * draw from is current again. Each drafts for the person's review.
 */
export async function startTriggeredRuns(
  engine: RunEngine,
  ctx: Omit<CommandContext, 'viewer'>,
  events: readonly MapEvent[],
): Promise<void> {
  await startWaiting(engine, ctx, events).catch(engine.logError);
  await startDivergentMaps(engine, ctx, events).catch(engine.logError);
  const mapId = events.find((e) => e.type === 'NodeConcluded' || e.type === 'NodeStale')?.mapId;
  if (!mapId) return;
  const map = await ctx.db.mapVersion(mapId);
  if (!map?.autoRun) return;
  for (const { nodeId, trigger } of await conclusionsToStart(ctx.db.read, events)) {
    try {
      await processNode(engine, { ...ctx, viewer: { id: map.ownerId } }, { nodeId, intent: 'CONCLUDE' }, { trigger });
    } catch (error) {
      if (!(error instanceof NodeBusyError)) engine.logError(error);
    }
  }
}
